CREATE TABLE "comment_mentions" (
	"comment_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "comment_mentions_comment_id_user_id_pk" PRIMARY KEY("comment_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "comments" DROP CONSTRAINT "comments_subject_type_check";--> statement-breakpoint
ALTER TABLE "subject_counts" DROP CONSTRAINT "subject_counts_not_negative";--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "edited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subject_counts" ADD COLUMN "comment_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "comment_mentions" ADD CONSTRAINT "comment_mentions_comment_id_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_mentions" ADD CONSTRAINT "comment_mentions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comment_mentions_user_idx" ON "comment_mentions" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "subject_counts" ADD CONSTRAINT "subject_counts_not_negative" CHECK ("subject_counts"."like_count" >= 0 and "subject_counts"."dislike_count" >= 0 and "subject_counts"."favorite_count" >= 0 and "subject_counts"."share_count" >= 0 and "subject_counts"."comment_count" >= 0);--> statement-breakpoint
-- hand-written: the comment count of every commented subject (writings are the only kind with comments before this migration), with its author, which the creator's desk finds comments on a user's content by.
INSERT INTO "subject_counts" ("subject_type", "subject_id", "author_id", "comment_count")
  SELECT c."subject_type", c."subject_id", w."author_id", count(*)::integer
  FROM "comments" c JOIN "writings" w ON w."id" = c."subject_id"
  WHERE c."subject_type" = 'writing' AND c."deleted_at" IS NULL
  GROUP BY c."subject_type", c."subject_id", w."author_id"
  ON CONFLICT ("subject_type", "subject_id") DO UPDATE SET "comment_count" = EXCLUDED."comment_count";
