ALTER TABLE "search_documents" ADD COLUMN "rank_score" double precision GENERATED ALWAYS AS (ln(1 + greatest(hot_score, 0)) + extract(epoch from (published_at at time zone 'UTC'))::float8 / 2592000.0) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "search_documents_rank_idx" ON "search_documents" USING btree ("rank_score");--> statement-breakpoint
CREATE INDEX "search_documents_type_rank_idx" ON "search_documents" USING btree ("type","rank_score");--> statement-breakpoint
CREATE INDEX "search_documents_circle_rank_idx" ON "search_documents" USING btree ("circle_id","rank_score");--> statement-breakpoint
CREATE INDEX "search_documents_title_terms_idx" ON "search_documents" USING gin (ts_filter("terms", '{a,b}'));