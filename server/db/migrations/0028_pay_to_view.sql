CREATE TABLE "writing_paid_parts" (
	"writing_id" integer PRIMARY KEY NOT NULL,
	"html" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "writing_unlocks" (
	"id" serial PRIMARY KEY NOT NULL,
	"writing_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"price" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refunded_at" timestamp with time zone,
	"refunds" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "writing_paid_parts" ADD CONSTRAINT "writing_paid_parts_writing_id_writings_id_fk" FOREIGN KEY ("writing_id") REFERENCES "public"."writings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "writing_unlocks" ADD CONSTRAINT "writing_unlocks_writing_id_writings_id_fk" FOREIGN KEY ("writing_id") REFERENCES "public"."writings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "writing_unlocks" ADD CONSTRAINT "writing_unlocks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "writing_unlocks_reader_idx" ON "writing_unlocks" USING btree ("writing_id","user_id");