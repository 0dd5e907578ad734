DROP TABLE "book_views" CASCADE;--> statement-breakpoint
DROP TABLE "writing_views" CASCADE;--> statement-breakpoint
DROP TABLE "entry_views" CASCADE;--> statement-breakpoint
DROP TABLE "question_views" CASCADE;