import { onEvent } from "../events/bus.ts";
import type { EventVerb } from "../events/catalogue.ts";
import { registerSubjectDependent } from "../subjects/registry.ts";
import { searchWordsTag } from "../../server/lib/cache-tags.ts";
import { indexSubjects, removeSubjects } from "./indexer.ts";
import { isSearchType, searchKind, type SearchType } from "./registry.ts";

/*
 * The index follows every write in the write's own transaction, so a published item is found on
 * the next request and a deleted, hidden or made-private one is gone with the change that did it.
 * Deletions reach it as a subject dependent (with the children deleted alongside: a book's
 * chapters); everything else re-reads the subject as it is now (a hidden one loses its row).
 */

registerSubjectDependent("search.index", async (tx, type, ids) => {
  if (isSearchType(type)) await removeSubjects(tx.db, type, ids);
});

function reindexOn<Verb extends EventVerb>(
  verbs: Verb[],
  name: string,
  targets: (event: Parameters<NonNullable<Parameters<typeof onEvent<Verb>>[1]["inTransaction"]>>[1]) => [SearchType, number][],
): void {
  onEvent(verbs, {
    name,
    async inTransaction(tx, event) {
      for (const [type, id] of targets(event)) {
        await indexSubjects(tx.db, type, [id]);
        // Circle and entry names grow the segmenter's dictionary: every process learns them before its next query.
        if (type === "circle" || type === "entry") tx.invalidate(searchWordsTag(type, id));
      }
    },
  });
}

reindexOn(["writing.published", "writing.edited"], "search.writing", (event) => [["writing", event.subjectId]]);
reindexOn(["book.created", "book.updated", "book.completed", "book.resumed"], "search.book", (event) => [["book", event.subjectId]]);
reindexOn(["book.chapter_added", "book.chapter_updated"], "search.chapter", (event) => [["chapter", event.data.chapterId]]);
reindexOn(["question.asked", "question.edited"], "search.question", (event) => [["question", event.subjectId]]);
reindexOn(["answer.created", "answer.edited"], "search.answer", (event) => [["answer", event.subjectId]]);
reindexOn(["entry.created", "entry.edited"], "search.entry", (event) => [["entry", event.subjectId]]);
reindexOn(["circle.created", "circle.updated"], "search.circle", (event) => [["circle", event.subjectId]]);
reindexOn(["user.registered", "user.profile_updated"], "search.user", (event) => [["user", event.subjectId]]);

/**
 * Moderation: a hidden subject leaves the index with what is found only through it (a book's
 * chapters, a question's answers), a restored one comes back with them (deletion goes through the
 * dependent).
 */
onEvent(["report.created", "moderation.decided"], {
  name: "search.moderation",
  async inTransaction(tx, event) {
    const type = event.subjectType;
    if (!type || !isSearchType(type)) return;
    await indexSubjects(tx.db, type, [event.subjectId]);
    const children = await searchKind(type)?.children?.(tx.db, event.subjectId);
    if (children && children.ids.length > 0) await indexSubjects(tx.db, children.type, children.ids);
  },
});
