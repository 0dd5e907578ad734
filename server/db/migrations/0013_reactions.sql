CREATE TABLE "reactions" (
	"user_id" integer NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" integer NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reactions_user_id_subject_type_subject_id_pk" PRIMARY KEY("user_id","subject_type","subject_id"),
	CONSTRAINT "reactions_kind_check" CHECK ("reactions"."kind" in ('like', 'dislike'))
);
--> statement-breakpoint
CREATE TABLE "subject_counts" (
	"subject_type" text NOT NULL,
	"subject_id" integer NOT NULL,
	"author_id" integer,
	"like_count" integer DEFAULT 0 NOT NULL,
	"dislike_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "subject_counts_subject_type_subject_id_pk" PRIMARY KEY("subject_type","subject_id"),
	CONSTRAINT "subject_counts_not_negative" CHECK ("subject_counts"."like_count" >= 0 and "subject_counts"."dislike_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "reactions" ADD CONSTRAINT "reactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subject_counts" ADD CONSTRAINT "subject_counts_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reactions_subject_idx" ON "reactions" USING btree ("subject_type","subject_id");--> statement-breakpoint
CREATE INDEX "subject_counts_author_idx" ON "subject_counts" USING btree ("author_id");