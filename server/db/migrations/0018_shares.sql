CREATE TABLE "subject_shares" (
	"subject_type" text NOT NULL,
	"subject_id" integer NOT NULL,
	"visitor" text NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "subject_shares_subject_type_subject_id_visitor_day_pk" PRIMARY KEY("subject_type","subject_id","visitor","day")
);
--> statement-breakpoint
ALTER TABLE "subject_counts" DROP CONSTRAINT "subject_counts_not_negative";--> statement-breakpoint
ALTER TABLE "subject_counts" ADD COLUMN "share_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subject_counts" ADD CONSTRAINT "subject_counts_not_negative" CHECK ("subject_counts"."like_count" >= 0 and "subject_counts"."dislike_count" >= 0 and "subject_counts"."favorite_count" >= 0 and "subject_counts"."share_count" >= 0);