import { eq, sql } from "drizzle-orm";
import { books } from "../../server/db/schema/index.ts";
import { onEvent } from "../events/bus.ts";

/*
 * A book's Hot score (`books.hot_score`, the `books_hot_score` trigger over `engagement_hot_score`,
 * docs/features/interactions.md) follows its comments, reactions, favourites and shares in their
 * own transaction, as a writing's does (features/writings/handlers.ts); the hourly recompute
 * (`recomputeHotScores`) recounts comments from the table.
 */

onEvent("comment.created", {
  name: "books.hot_comment_added",
  async inTransaction(tx, event) {
    if (event.data.subjectType !== "book") return;
    await tx.db
      .update(books)
      .set({ commentCount: sql`${books.commentCount} + 1` })
      .where(eq(books.id, event.data.subjectId));
  },
});

onEvent("comment.deleted", {
  name: "books.hot_comment_removed",
  async inTransaction(tx, event) {
    if (event.data.subjectType !== "book") return;
    await tx.db
      .update(books)
      .set({ commentCount: sql`greatest(${books.commentCount} - 1, 0)` })
      .where(eq(books.id, event.data.subjectId));
  },
});
