import { and, eq, inArray, notExists } from "drizzle-orm";
import { answers, encyclopediaEntries, entryCitations, writings } from "../../server/db/schema/index.ts";
import type { Transaction } from "../../server/lib/transactions.ts";
import { countsTag } from "../../server/lib/cache-tags.ts";
import { onEvent } from "../events/bus.ts";
import { recountCitations } from "./service.ts";

/*
 * The cite count's links: a writing, an answer or an entry whose text links to an entry's page
 * cites that entry. Their saves and deletions rewrite the links they hold (in the same
 * transaction) and recount the entries linked before and after.
 */

type SourceType = (typeof entryCitations.$inferSelect)["sourceType"];

/** `href`s to an entry's page (`/circles/{cid}/encyclopedia/{id}`, any language, absolute or not). */
const entryHref = /href="(?:https?:\/\/[^/"]+)?(?:\/en)?\/circles\/\d{1,9}\/encyclopedia\/(\d{1,9})(?=["/?#])/g;

/** The entry ids a rendered text links to. */
export function linkedEntryIds(html: string): number[] {
  return [...new Set([...html.matchAll(entryHref)].map((match) => Number(match[1])))];
}

async function relink(tx: Transaction, sourceType: SourceType, sourceId: number, html: string | null): Promise<void> {
  const before = await tx.db
    .delete(entryCitations)
    .where(and(eq(entryCitations.sourceType, sourceType), eq(entryCitations.sourceId, sourceId)))
    .returning({ entryId: entryCitations.entryId });
  // An entry linking to itself does not cite itself.
  const wanted = html === null ? [] : linkedEntryIds(html).filter((id) => !(sourceType === "entry" && id === sourceId));
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
    await relink(tx, "answer", event.subjectId, row?.html ?? null);
  },
});

onEvent("answer.deleted", {
  name: "encyclopedia.answer_citations_removed",
  inTransaction: (tx, event) => relink(tx, "answer", event.subjectId, null),
});

onEvent("question.deleted", {
  name: "encyclopedia.question_answers_citations_removed",
  // Its answers went with it without events of their own: the links of answers gone are dropped.
  async inTransaction(tx) {
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
    if (touched.length === 0) return;
    await recountCitations(tx.db, touched);
    tx.invalidate(...touched.map((id) => countsTag("entry", id)));
  },
});

onEvent(["writing.published", "writing.edited"], {
  name: "encyclopedia.writing_citations",
  async inTransaction(tx, event) {
    const [row] = await tx.db.select({ html: writings.html }).from(writings).where(eq(writings.id, event.subjectId)).limit(1);
    await relink(tx, "writing", event.subjectId, row?.html ?? null);
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
    await relink(tx, "entry", event.subjectId, row?.html ?? null);
  },
});

onEvent("entry.deleted", {
  name: "encyclopedia.entry_citations_removed",
  inTransaction: (tx, event) => relink(tx, "entry", event.subjectId, null),
});
