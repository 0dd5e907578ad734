CREATE TABLE "red_packet_claims" (
	"red_packet_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "red_packet_claims_red_packet_id_user_id_pk" PRIMARY KEY("red_packet_id","user_id"),
	CONSTRAINT "red_packet_claims_amount_check" CHECK ("red_packet_claims"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "red_packets" (
	"id" serial PRIMARY KEY NOT NULL,
	"writing_id" integer NOT NULL,
	"funder_id" integer NOT NULL,
	"total" integer NOT NULL,
	"shares" integer NOT NULL,
	"split" text NOT NULL,
	"remaining_amount" integer NOT NULL,
	"remaining_shares" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "red_packets_amounts_check" CHECK ("red_packets"."shares" > 0 and "red_packets"."total" >= "red_packets"."shares" and "red_packets"."remaining_shares" >= 0 and "red_packets"."remaining_amount" >= "red_packets"."remaining_shares")
);
--> statement-breakpoint
ALTER TABLE "red_packet_claims" ADD CONSTRAINT "red_packet_claims_red_packet_id_red_packets_id_fk" FOREIGN KEY ("red_packet_id") REFERENCES "public"."red_packets"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "red_packet_claims" ADD CONSTRAINT "red_packet_claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "red_packets" ADD CONSTRAINT "red_packets_writing_id_writings_id_fk" FOREIGN KEY ("writing_id") REFERENCES "public"."writings"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "red_packets" ADD CONSTRAINT "red_packets_funder_id_users_id_fk" FOREIGN KEY ("funder_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "red_packets_writing_idx" ON "red_packets" USING btree ("writing_id");--> statement-breakpoint
CREATE INDEX "red_packets_open_idx" ON "red_packets" USING btree ("expires_at") WHERE "red_packets"."status" = 'open';