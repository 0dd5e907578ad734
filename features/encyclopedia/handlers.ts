import { and, eq, inArray, notExists, or } from "drizzle-orm";
import { answers, encyclopediaEntries, entryCitations, questions, writings } from "../../server/db/schema/index.ts";
import type { Transaction } from "../../server/lib/transactions.ts";
import { countsTag } from "../../server/lib/cache-tags.ts";
import { onEvent } from "../events/bus.ts";
import { subjectKind } from "../subjects/registry.ts";
import { isSubjectType } from "../subjects/types.ts";
import { recountCitations } from "./service.ts";

/*
 * What cites an entry (`entry_citations`): a writing or a question naming it among its related
 * entries, and a writing, a question, an answer or an entry whose text links to the entry's page.
 * Their saves and deletions rewrite the rows they hold (in the same transaction) and recount the
 * entries cited before and after. Moderation hiding or restoring a source drops the cited
 * entries' count tags (readers count only the sources they may read: `visibleCiteCount`).
 */

type SourceType = (typeof entryCitations.$inferSelect)["sourceType"];

/** `href`s to an entry's page (`/circles/{cid}/encyclopedia/{id}`, any language, absolute or not). Migration 0033 has it in SQL. */
const entryHref = /href="(?:https?:\/\/[^/"]+)?(?:\/en)?\/circles\/\d{1,9}\/encyclopedia\/(\d{1,9})(?=["/?#])/g;

/** The entry ids a rendered text links to. */
export function linkedEntryIds(html: string): number[] {
  return [...new Set([...html.matchAll(entryHref)].map((match) => Number(match[1])))];
}

/** The source's content as it is now (null once deleted): its rendered text and the entries it relates to. */
type Source = { html: string; related?: readonly number[] } | null;

async function relink(tx: Transaction, sourceType: SourceType, sourceId: number, source: Source): Promise<void> {
  const before = await tx.db
    .delete(entryCitations)
    .where(and(eq(entryCitations.sourceType, sourceType), eq(entryCitations.sourceId, sourceId)))
    .returning({ entryId: entryCitations.entryId });
  // An entry linking to itself does not cite itself.
  const wanted =
    source === null
      ? []
      : [...new Set([...(source.related ?? []), ...linkedEntryIds(source.html)])].filter(
          (id) => !(sourceType === "entry" && id === sourceId),
        );
  const existing =
    wanted.length === 0
      ? []
      : await tx.db.select({ id: encyclopediaEntries.id }).from(encyclopediaEntries).where(inArray(encyclopediaEntries.id, wanted));
  if (existing.length > 0)
    await tx.db
      .insert(entryCitations)
      .values(existing.map((entry) => ({ entryId: entry.id, sourceType, sourceId })))
      .onConflictDoNothing();
  const touched = [...new Set([...before.map((row) => row.entryId), ...existing.map((entry) => entry.id)])];
  if (touched.length === 0) return;
  await recountCitations(tx.db, touched);
  tx.invalidate(...touched.map((id) => countsTag("entry", id)));
}

onEvent(["answer.created", "answer.edited"], {
  name: "encyclopedia.answer_citations",
  async inTransaction(tx, event) {
    const [row] = await tx.db.select({ html: answers.html }).from(answers).where(eq(answers.id, event.subjectId)).limit(1);
    await relink(tx, "answer", event.subjectId, row ?? null);
  },
});

onEvent("answer.deleted", {
  name: "encyclopedia.answer_citations_removed",
  inTransaction: (tx, event) => relink(tx, "answer", event.subjectId, null),
});

onEvent(["question.asked", "question.edited"], {
  name: "encyclopedia.question_citations",
  async inTransaction(tx, event) {
    const [row] = await tx.db
      .select({ html: questions.html, related: questions.relatedEntryIds })
      .from(questions)
      .where(eq(questions.id, event.subjectId))
      .limit(1);
    await relink(tx, "question", event.subjectId, row ?? null);
  },
});

onEvent("question.deleted", {
  name: "encyclopedia.question_answers_citations_removed",
  // Its answers went with it without events of their own: the rows of answers gone are dropped.
  async inTransaction(tx, event) {
    const gone = await tx.db
      .delete(entryCitations)
      .where(
        and(
          eq(entryCitations.sourceType, "answer"),
          notExists(tx.db.select({ id: answers.id }).from(answers).where(eq(answers.id, entryCitations.sourceId))),
        ),
      )
      .returning({ entryId: entryCitations.entryId });
    const touched = [...new Set(gone.map((row) => row.entryId))];
    if (touched.length > 0) {
      await recountCitations(tx.db, touched);
      tx.invalidate(...touched.map((id) => countsTag("entry", id)));
    }
    await relink(tx, "question", event.subjectId, null);
  },
});

onEvent(["writing.published", "writing.edited"], {
  name: "encyclopedia.writing_citations",
  async inTransaction(tx, event) {
    const [row] = await tx.db
      .select({ html: writings.html, related: writings.relatedEntryIds })
      .from(writings)
      .where(eq(writings.id, event.subjectId))
      .limit(1);
    await relink(tx, "writing", event.subjectId, row ?? null);
  },
});

onEvent("writing.deleted", {
  name: "encyclopedia.writing_citations_removed",
  inTransaction: (tx, event) => relink(tx, "writing", event.subjectId, null),
});

onEvent("entry.edited", {
  name: "encyclopedia.entry_citations",
  async inTransaction(tx, event) {
    const [row] = await tx.db
      .select({ html: encyclopediaEntries.descriptionHtml })
      .from(encyclopediaEntries)
      .where(eq(encyclopediaEntries.id, event.subjectId))
      .limit(1);
    await relink(tx, "entry", event.subjectId, row ?? null);
  },
});

onEvent("entry.deleted", {
  name: "encyclopedia.entry_citations_removed",
  inTransaction: (tx, event) => relink(tx, "entry", event.subjectId, null),
});

/** Hidden or restored by moderation: the entries it cites show their counts again (a hidden question takes its answers along). */
onEvent(["report.created", "moderation.decided"], {
  name: "encyclopedia.citing_source_moderated",
  async inTransaction(tx, event) {
    const kind = event.subjectType;
    if (!kind || !isSubjectType(kind) || subjectKind(kind).citesEntries !== true) return;
    const own = and(eq(entryCitations.sourceType, kind as SourceType), eq(entryCitations.sourceId, event.subjectId));
    const ofAnswers =
      kind === "question"
        ? and(
            eq(entryCitations.sourceType, "answer"),
            inArray(entryCitations.sourceId, tx.db.select({ id: answers.id }).from(answers).where(eq(answers.questionId, event.subjectId))),
          )
        : undefined;
    const rows = await tx.db
      .select({ entryId: entryCitations.entryId })
      .from(entryCitations)
      .where(ofAnswers ? or(own, ofAnswers) : own);
    const touched = [...new Set(rows.map((row) => row.entryId))];
    if (touched.length > 0) tx.invalidate(...touched.map((id) => countsTag("entry", id)));
  },
});
