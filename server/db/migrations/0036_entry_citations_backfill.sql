ALTER TABLE "entry_citations" DROP CONSTRAINT "entry_citations_source_type_check";--> statement-breakpoint
ALTER TABLE "entry_citations" ADD CONSTRAINT "entry_citations_source_type_check" CHECK ("entry_citations"."source_type" in ('writing', 'question', 'answer', 'entry'));--> statement-breakpoint
-- Hand-written: what cited entries before this table was kept (related entries of writings and questions; links to an entry's page in writings, questions, answers and entries), each source once; then every entry's count.
INSERT INTO "entry_citations" ("entry_id", "source_type", "source_id")
SELECT DISTINCT e."id", s."source_type", s."source_id" FROM (
	SELECT 'writing' AS "source_type", w."id" AS "source_id", unnest(w."related_entry_ids") AS "entry_id" FROM "writings" w
	UNION SELECT 'question', q."id", unnest(q."related_entry_ids") FROM "questions" q
	UNION SELECT 'writing', w."id", (regexp_matches(w."html", 'href="(?:https?://[^/"]+)?(?:/en)?/circles/\d{1,9}/encyclopedia/(\d{1,9})(?=["/?#])', 'g'))[1]::integer FROM "writings" w
	UNION SELECT 'question', q."id", (regexp_matches(q."html", 'href="(?:https?://[^/"]+)?(?:/en)?/circles/\d{1,9}/encyclopedia/(\d{1,9})(?=["/?#])', 'g'))[1]::integer FROM "questions" q
	UNION SELECT 'answer', a."id", (regexp_matches(a."html", 'href="(?:https?://[^/"]+)?(?:/en)?/circles/\d{1,9}/encyclopedia/(\d{1,9})(?=["/?#])', 'g'))[1]::integer FROM "answers" a
	UNION SELECT 'entry', x."id", (regexp_matches(x."description_html", 'href="(?:https?://[^/"]+)?(?:/en)?/circles/\d{1,9}/encyclopedia/(\d{1,9})(?=["/?#])', 'g'))[1]::integer FROM "encyclopedia_entries" x
) s JOIN "encyclopedia_entries" e ON e."id" = s."entry_id"
WHERE NOT (s."source_type" = 'entry' AND s."source_id" = s."entry_id")
ON CONFLICT DO NOTHING;--> statement-breakpoint
UPDATE "encyclopedia_entries" SET "cite_count" = (SELECT count(*)::integer FROM "entry_citations" c WHERE c."entry_id" = "encyclopedia_entries"."id");
