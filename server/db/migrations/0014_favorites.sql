CREATE TABLE "favorite_folders" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "favorite_folders_name_check" CHECK ("favorite_folders"."is_default" or char_length("favorite_folders"."name") between 1 and 40)
);
--> statement-breakpoint
CREATE TABLE "favorites" (
	"user_id" integer NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" integer NOT NULL,
	"folder_id" integer NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "favorites_user_id_subject_type_subject_id_pk" PRIMARY KEY("user_id","subject_type","subject_id"),
	CONSTRAINT "favorites_note_length" CHECK (char_length("favorites"."note") <= 500)
);
--> statement-breakpoint
ALTER TABLE "subject_counts" DROP CONSTRAINT "subject_counts_not_negative";--> statement-breakpoint
ALTER TABLE "subject_counts" ADD COLUMN "favorite_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "favorite_folders" ADD CONSTRAINT "favorite_folders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_folder_id_favorite_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."favorite_folders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "favorite_folders_user_idx" ON "favorite_folders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "favorite_folders_one_default" ON "favorite_folders" USING btree ("user_id") WHERE "favorite_folders"."is_default";--> statement-breakpoint
CREATE INDEX "favorites_folder_time_idx" ON "favorites" USING btree ("folder_id","created_at");--> statement-breakpoint
CREATE INDEX "favorites_user_time_idx" ON "favorites" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "favorites_subject_idx" ON "favorites" USING btree ("subject_type","subject_id");--> statement-breakpoint
ALTER TABLE "subject_counts" ADD CONSTRAINT "subject_counts_not_negative" CHECK ("subject_counts"."like_count" >= 0 and "subject_counts"."dislike_count" >= 0 and "subject_counts"."favorite_count" >= 0);