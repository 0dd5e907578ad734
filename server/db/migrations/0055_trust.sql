CREATE TABLE "device_sightings" (
	"user_id" integer NOT NULL,
	"device_hash" text NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_sightings_user_id_device_hash_pk" PRIMARY KEY("user_id","device_hash")
);
--> statement-breakpoint
CREATE TABLE "ledger_corrections" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"currency" text NOT NULL,
	"amount" integer NOT NULL,
	"reason" text NOT NULL,
	"requested_by" integer NOT NULL,
	"status" text NOT NULL,
	"decided_by" integer,
	"transaction_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "ledger_corrections_status_check" CHECK ("ledger_corrections"."status" in ('pending', 'posted', 'rejected')),
	CONSTRAINT "ledger_corrections_amount_check" CHECK ("ledger_corrections"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "trust_rings" (
	"id" serial PRIMARY KEY NOT NULL,
	"member_key" text NOT NULL,
	"member_ids" integer[] NOT NULL,
	"evidence" jsonb NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"found_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_found_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" integer,
	"decision_reason" text DEFAULT '' NOT NULL,
	CONSTRAINT "trust_rings_status_check" CHECK ("trust_rings"."status" in ('open', 'dismissed'))
);
--> statement-breakpoint
CREATE TABLE "trust_verdicts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"action" text NOT NULL,
	"actor_id" integer NOT NULL,
	"receiver_id" integer,
	"subject_type" text NOT NULL,
	"subject_id" integer NOT NULL,
	"reason" text NOT NULL,
	"day" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trust_verdicts_action_check" CHECK ("trust_verdicts"."action" in ('view', 'like', 'follow', 'tip', 'unlock', 'ad_click')),
	CONSTRAINT "trust_verdicts_reason_check" CHECK ("trust_verdicts"."reason" in ('bot', 'repeat', 'self', 'linked', 'burst'))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "signup_address" text;--> statement-breakpoint
ALTER TABLE "device_sightings" ADD CONSTRAINT "device_sightings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_corrections" ADD CONSTRAINT "ledger_corrections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trust_verdicts" ADD CONSTRAINT "trust_verdicts_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trust_verdicts" ADD CONSTRAINT "trust_verdicts_receiver_id_users_id_fk" FOREIGN KEY ("receiver_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_sightings_device_idx" ON "device_sightings" USING btree ("device_hash");--> statement-breakpoint
CREATE INDEX "ledger_corrections_status_idx" ON "ledger_corrections" USING btree ("status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "trust_rings_member_key_idx" ON "trust_rings" USING btree ("member_key");--> statement-breakpoint
CREATE INDEX "trust_verdicts_day_idx" ON "trust_verdicts" USING btree ("day","reason");--> statement-breakpoint
CREATE INDEX "trust_verdicts_actor_idx" ON "trust_verdicts" USING btree ("actor_id","action","subject_type","subject_id");
