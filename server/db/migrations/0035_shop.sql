CREATE TABLE "shop_owned_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"item" text NOT NULL,
	"slot" text NOT NULL,
	"currency" text NOT NULL,
	"price" integer NOT NULL,
	"unique_item" text,
	"worn" boolean DEFAULT false NOT NULL,
	"used_at" timestamp with time zone,
	"used_for" text,
	"writing_id" integer,
	"circle_id" integer,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shop_owned_items_price_check" CHECK ("shop_owned_items"."price" > 0)
);
--> statement-breakpoint
ALTER TABLE "checkins" ADD COLUMN "made_up" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "shop_owned_items" ADD CONSTRAINT "shop_owned_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_owned_items" ADD CONSTRAINT "shop_owned_items_writing_id_writings_id_fk" FOREIGN KEY ("writing_id") REFERENCES "public"."writings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_owned_items" ADD CONSTRAINT "shop_owned_items_circle_id_circles_id_fk" FOREIGN KEY ("circle_id") REFERENCES "public"."circles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shop_owned_items_user_idx" ON "shop_owned_items" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "shop_owned_items_unique_item_idx" ON "shop_owned_items" USING btree ("user_id","unique_item");--> statement-breakpoint
CREATE UNIQUE INDEX "shop_owned_items_worn_idx" ON "shop_owned_items" USING btree ("user_id","slot") WHERE "shop_owned_items"."worn";--> statement-breakpoint
CREATE INDEX "shop_owned_items_highlight_idx" ON "shop_owned_items" USING btree ("circle_id","expires_at") WHERE "shop_owned_items"."circle_id" is not null;