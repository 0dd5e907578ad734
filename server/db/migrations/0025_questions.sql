CREATE TABLE "answers" (
	"id" serial PRIMARY KEY NOT NULL,
	"question_id" integer NOT NULL,
	"author_id" integer NOT NULL,
	"markdown" text NOT NULL,
	"html" text NOT NULL,
	"excerpt" text DEFAULT '' NOT NULL,
	"text_length" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "question_categories" (
	"question_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	CONSTRAINT "question_categories_question_id_category_id_pk" PRIMARY KEY("question_id","category_id")
);
--> statement-breakpoint
CREATE TABLE "question_follows" (
	"question_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "question_follows_question_id_user_id_pk" PRIMARY KEY("question_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "question_views" (
	"question_id" integer NOT NULL,
	"visitor" text NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "question_views_question_id_visitor_day_pk" PRIMARY KEY("question_id","visitor","day")
);
--> statement-breakpoint
CREATE TABLE "questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"circle_id" integer NOT NULL,
	"author_id" integer NOT NULL,
	"language" text DEFAULT 'zh-CN' NOT NULL,
	"title" text NOT NULL,
	"title_words" text[] DEFAULT '{}'::text[] NOT NULL,
	"markdown" text DEFAULT '' NOT NULL,
	"html" text DEFAULT '' NOT NULL,
	"excerpt" text DEFAULT '' NOT NULL,
	"text_length" integer DEFAULT 0 NOT NULL,
	"related_entry_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"accepted_answer_id" integer,
	"version" integer DEFAULT 1 NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"answer_count" integer DEFAULT 0 NOT NULL,
	"comment_count" integer DEFAULT 0 NOT NULL,
	"hot_score" double precision DEFAULT 0 NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp with time zone,
	CONSTRAINT "questions_related_max_five" CHECK (coalesce(array_length("questions"."related_entry_ids", 1), 0) <= 5),
	CONSTRAINT "questions_language_check" CHECK ("questions"."language" in ('zh-CN', 'en'))
);
--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_categories" ADD CONSTRAINT "question_categories_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_categories" ADD CONSTRAINT "question_categories_category_id_circle_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."circle_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_follows" ADD CONSTRAINT "question_follows_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_follows" ADD CONSTRAINT "question_follows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_views" ADD CONSTRAINT "question_views_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_circle_id_circles_id_fk" FOREIGN KEY ("circle_id") REFERENCES "public"."circles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_accepted_answer_id_answers_id_fk" FOREIGN KEY ("accepted_answer_id") REFERENCES "public"."answers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "answers_question_author_idx" ON "answers" USING btree ("question_id","author_id");--> statement-breakpoint
CREATE INDEX "answers_question_time_idx" ON "answers" USING btree ("question_id","published_at","id");--> statement-breakpoint
CREATE INDEX "answers_author_idx" ON "answers" USING btree ("author_id","published_at","id");--> statement-breakpoint
CREATE INDEX "question_categories_category_idx" ON "question_categories" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "question_follows_user_idx" ON "question_follows" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "questions_circle_time_idx" ON "questions" USING btree ("circle_id","published_at","id");--> statement-breakpoint
CREATE INDEX "questions_circle_hot_idx" ON "questions" USING btree ("circle_id","hot_score","id");--> statement-breakpoint
CREATE INDEX "questions_circle_unanswered_idx" ON "questions" USING btree ("circle_id","published_at","id") WHERE "questions"."answer_count" = 0;--> statement-breakpoint
CREATE INDEX "questions_author_idx" ON "questions" USING btree ("author_id","published_at","id");--> statement-breakpoint
CREATE INDEX "questions_title_words_idx" ON "questions" USING gin ("title_words");--> statement-breakpoint
-- hand-written: the questions' Hot score (issue 22), kept apart from writing_engagement_score so the
-- writings' Hot work can change that one freely. Views 1, likes 5, favourites 8, shares 8, comments 10,
-- answers 15; dislikes take 5 away (never below zero); over the age in hours plus 2, raised to 1.5.
CREATE OR REPLACE FUNCTION question_engagement_score(views integer, answers integer, comments integer, likes integer, dislikes integer, favorites integer, shares integer, published timestamptz, reference timestamptz) RETURNS double precision
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT (greatest(views + 5 * likes + 8 * favorites + 8 * shares + 10 * comments + 15 * answers - 5 * dislikes, 0) + 1)::float8
    / power(greatest(extract(epoch from (reference - published)) / 3600.0, 0) + 2, 1.5) $$;--> statement-breakpoint
-- hand-written: the trigger reads the question's interaction counters and its answers' likes (subject_counts).
CREATE OR REPLACE FUNCTION questions_set_hot_score() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  counted record;
  answer_likes integer;
BEGIN
  SELECT like_count, dislike_count, favorite_count, share_count INTO counted
    FROM subject_counts WHERE subject_type = 'question' AND subject_id = NEW.id;
  SELECT coalesce(sum(sc.like_count), 0)::integer INTO answer_likes
    FROM answers a JOIN subject_counts sc ON sc.subject_type = 'answer' AND sc.subject_id = a.id
    WHERE a.question_id = NEW.id;
  NEW.hot_score := question_engagement_score(NEW.views, NEW.answer_count, NEW.comment_count,
    coalesce(counted.like_count, 0) + answer_likes, coalesce(counted.dislike_count, 0), coalesce(counted.favorite_count, 0),
    coalesce(counted.share_count, 0), NEW.published_at, coalesce((SELECT reference_at FROM hot_clock WHERE id = 1), now()));
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER questions_hot_score BEFORE INSERT OR UPDATE OF views, answer_count, comment_count, published_at ON questions
  FOR EACH ROW EXECUTE FUNCTION questions_set_hot_score();
