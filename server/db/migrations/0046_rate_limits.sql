-- Route rate-limit counters shared by every process (server/rate-limit-store.ts). Unlogged: no WAL
-- for a counter that may start again at zero after a crash.
CREATE UNLOGGED TABLE "rate_limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"resets_at" timestamp with time zone NOT NULL
);
