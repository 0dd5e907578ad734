CREATE TABLE "drafts" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"key" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "writing_categories" (
	"writing_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	CONSTRAINT "writing_categories_writing_id_category_id_pk" PRIMARY KEY("writing_id","category_id")
);
--> statement-breakpoint
CREATE TABLE "writing_views" (
	"writing_id" integer NOT NULL,
	"visitor" text NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "writing_views_writing_id_visitor_day_pk" PRIMARY KEY("writing_id","visitor","day")
);
--> statement-breakpoint
CREATE TABLE "writings" (
	"id" serial PRIMARY KEY NOT NULL,
	"circle_id" integer NOT NULL,
	"author_id" integer NOT NULL,
	"type" text NOT NULL,
	"kind" text DEFAULT 'ordinary' NOT NULL,
	"kind_name" text,
	"language" text NOT NULL,
	"translation_of" integer,
	"series_id" integer,
	"part_number" integer DEFAULT 1 NOT NULL,
	"title" text NOT NULL,
	"markdown" text NOT NULL,
	"html" text NOT NULL,
	"toc" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"excerpt" text DEFAULT '' NOT NULL,
	"text_length" integer DEFAULT 0 NOT NULL,
	"reading_minutes" integer DEFAULT 1 NOT NULL,
	"cover_file_id" text,
	"is_repost" boolean DEFAULT false NOT NULL,
	"source_url" text,
	"disable_copy" boolean DEFAULT false NOT NULL,
	"disable_context_menu" boolean DEFAULT false NOT NULL,
	"tip_enabled" boolean DEFAULT false NOT NULL,
	"pay_to_view_price" integer DEFAULT 0 NOT NULL,
	"red_packet_amount" integer DEFAULT 0 NOT NULL,
	"related_entry_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp with time zone,
	CONSTRAINT "writings_related_max_five" CHECK (coalesce(array_length("writings"."related_entry_ids", 1), 0) <= 5),
	CONSTRAINT "writings_type_check" CHECK ("writings"."type" in ('article', 'serial', 'post')),
	CONSTRAINT "writings_language_check" CHECK ("writings"."language" in ('zh-CN', 'en')),
	CONSTRAINT "writings_money_check" CHECK ("writings"."pay_to_view_price" >= 0 and "writings"."red_packet_amount" >= 0)
);
--> statement-breakpoint
ALTER TABLE "drafts" ADD CONSTRAINT "drafts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "writing_categories" ADD CONSTRAINT "writing_categories_writing_id_writings_id_fk" FOREIGN KEY ("writing_id") REFERENCES "public"."writings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "writing_categories" ADD CONSTRAINT "writing_categories_category_id_circle_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."circle_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "writing_views" ADD CONSTRAINT "writing_views_writing_id_writings_id_fk" FOREIGN KEY ("writing_id") REFERENCES "public"."writings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "writings" ADD CONSTRAINT "writings_circle_id_circles_id_fk" FOREIGN KEY ("circle_id") REFERENCES "public"."circles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "writings" ADD CONSTRAINT "writings_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "writings" ADD CONSTRAINT "writings_translation_of_writings_id_fk" FOREIGN KEY ("translation_of") REFERENCES "public"."writings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "writings" ADD CONSTRAINT "writings_series_id_writings_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."writings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "writings" ADD CONSTRAINT "writings_cover_file_id_attachments_file_id_fk" FOREIGN KEY ("cover_file_id") REFERENCES "public"."attachments"("file_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "drafts_user_key_idx" ON "drafts" USING btree ("user_id","key");--> statement-breakpoint
CREATE INDEX "writing_categories_category_idx" ON "writing_categories" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "writings_circle_time_idx" ON "writings" USING btree ("circle_id","type","published_at");--> statement-breakpoint
CREATE INDEX "writings_time_idx" ON "writings" USING btree ("published_at","id");--> statement-breakpoint
CREATE INDEX "writings_author_idx" ON "writings" USING btree ("author_id");--> statement-breakpoint
CREATE INDEX "writings_series_idx" ON "writings" USING btree ("series_id");--> statement-breakpoint
CREATE UNIQUE INDEX "writings_group_language_idx" ON "writings" USING btree (coalesce("translation_of", "id"),"language");