CREATE TABLE "circle_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"circle_id" integer NOT NULL,
	"parent_id" integer,
	"name" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "circle_categories_not_own_parent" CHECK ("circle_categories"."parent_id" is null or "circle_categories"."parent_id" <> "circle_categories"."id")
);
--> statement-breakpoint
ALTER TABLE "circles" ADD COLUMN "languages" text[] DEFAULT '{zh-CN,en}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "circle_categories" ADD CONSTRAINT "circle_categories_circle_id_circles_id_fk" FOREIGN KEY ("circle_id") REFERENCES "public"."circles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "circle_categories" ADD CONSTRAINT "circle_categories_parent_id_circle_categories_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."circle_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "circle_categories_name_idx" ON "circle_categories" USING btree ("circle_id",lower("name"));--> statement-breakpoint
CREATE INDEX "circle_categories_parent_idx" ON "circle_categories" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "circles_sibling_name_zh_idx" ON "circles" USING btree (coalesce("parent_id", 0),lower("name_zh")) WHERE "circles"."name_zh" <> '';--> statement-breakpoint
CREATE UNIQUE INDEX "circles_sibling_name_en_idx" ON "circles" USING btree (coalesce("parent_id", 0),lower("name_en")) WHERE "circles"."name_en" <> '';