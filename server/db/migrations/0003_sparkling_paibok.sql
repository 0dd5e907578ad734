CREATE TABLE "circle_members" (
	"circle_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" text DEFAULT 'member' NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "circle_members_circle_id_user_id_pk" PRIMARY KEY("circle_id","user_id"),
	CONSTRAINT "circle_members_role_check" CHECK ("circle_members"."role" in ('member', 'master', 'admin', 'super_admin', 'founder'))
);
--> statement-breakpoint
ALTER TABLE "circles" ALTER COLUMN "visibility" SET DEFAULT 'public';--> statement-breakpoint
ALTER TABLE "circles" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "circle_members" ADD CONSTRAINT "circle_members_circle_id_circles_id_fk" FOREIGN KEY ("circle_id") REFERENCES "public"."circles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "circle_members" ADD CONSTRAINT "circle_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "circle_members_user_idx" ON "circle_members" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "circles" ADD CONSTRAINT "circles_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
UPDATE "circles" SET "visibility" = CASE "visibility" WHEN 'within_parent' THEN 'parent' WHEN 'members_only' THEN 'members' ELSE 'public' END;--> statement-breakpoint
ALTER TABLE "circles" ADD CONSTRAINT "circles_visibility_check" CHECK ("circles"."visibility" in ('public', 'circle', 'parent', 'members'));
