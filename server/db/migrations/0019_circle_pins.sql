CREATE TABLE "circle_pins" (
	"circle_id" integer NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" integer NOT NULL,
	"pinned_by" integer,
	"pinned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "circle_pins_circle_id_subject_type_subject_id_pk" PRIMARY KEY("circle_id","subject_type","subject_id")
);
--> statement-breakpoint
ALTER TABLE "circle_pins" ADD CONSTRAINT "circle_pins_circle_id_circles_id_fk" FOREIGN KEY ("circle_id") REFERENCES "public"."circles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "circle_pins" ADD CONSTRAINT "circle_pins_pinned_by_users_id_fk" FOREIGN KEY ("pinned_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "circle_pins_subject_idx" ON "circle_pins" USING btree ("subject_type","subject_id");