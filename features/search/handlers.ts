import { onEvent } from "../events/bus.ts";
import { registerSubjectDependent, whenRegistrationsComplete } from "../subjects/registry.ts";
import { searchWordsTag } from "../../server/lib/cache-tags.ts";
import { indexSubjects, removeSubjects } from "./indexer.ts";
import { isSearchType, searchKind, searchKinds } from "./registry.ts";

/*
 * The index follows every write in the write's own transaction, so a published item is found on
 * the next request and a deleted, hidden or made-private one is gone with the change that did it.
 * Deletions reach it as a subject dependent (with the children deleted alongside: a book's
 * chapters); everything else re-reads the subject as it is now (a hidden one loses its row).
 */

registerSubjectDependent("search.index", async (tx, type, ids) => {
  if (isSearchType(type)) await removeSubjects(tx.db, type, ids);
});

// Each searchable kind names the events that change it (`search.reindex` in its registration).
whenRegistrationsComplete(() => {
  for (const kind of searchKinds()) {
    for (const [index, reindex] of kind.reindex.entries()) {
      onEvent([...reindex.verbs], {
        name: index === 0 ? `search.${kind.type}` : `search.${kind.type}.${index + 1}`,
        async inTransaction(tx, event) {
          const id = reindex.subjectId(event);
          await indexSubjects(tx.db, kind.type, [id]);
          // Circle and entry names grow the segmenter's dictionary: every process learns them before its next query.
          if (kind.teachesWords) tx.invalidate(searchWordsTag(kind.type, id));
        },
      });
    }
  }
});

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
