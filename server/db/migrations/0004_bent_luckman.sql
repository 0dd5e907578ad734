CREATE TABLE "signup_counts" (
	"ip" text PRIMARY KEY NOT NULL,
	"signups" integer DEFAULT 0 NOT NULL,
	"window_started_at" timestamp with time zone DEFAULT now() NOT NULL
);
