import { eq, sql } from "drizzle-orm";
import { writings } from "../../server/db/schema/index.ts";
import { onEvent } from "../events/bus.ts";

/**
 * A writing's stored comment count, raised and lowered in the transaction of the comment's
 * creation or deletion; the `writings_hot_score` trigger moves its Hot score with it, so the Hot
 * lists (an index range on the score) follow comments at once. Replies count like comments, as
 * in the ranking formula; the hourly recompute (`recomputeHotScores`) recounts from the table.
 */
onEvent("comment.created", {
  name: "writings.hot_comment_added",
  async inTransaction(tx, event) {
    if (event.data.subjectType !== "writing") return;
    await tx.db
      .update(writings)
      .set({ commentCount: sql`${writings.commentCount} + 1` })
      .where(eq(writings.id, event.data.subjectId));
  },
});

onEvent("comment.deleted", {
  name: "writings.hot_comment_removed",
  async inTransaction(tx, event) {
    if (event.data.subjectType !== "writing") return;
    await tx.db
      .update(writings)
      .set({ commentCount: sql`greatest(${writings.commentCount} - 1, 0)` })
      .where(eq(writings.id, event.data.subjectId));
  },
});

/**
 * A comment hidden or shown again by moderation (the reports threshold or a decision) leaves or
 * rejoins its writing's count: recounted from the table in the same transaction.
 */
onEvent(["report.created", "moderation.decided"], {
  name: "writings.moderated_comment",
  async inTransaction(tx, event) {
    if (event.subjectType !== "comment") return;
    await tx.db.execute(sql`
      update writings w set comment_count = (
        select count(*)::integer from comments c
        where c.subject_type = 'writing' and c.subject_id = w.id and c.deleted_at is null and c.hidden_at is null)
      where w.id = (select m.subject_id from comments m where m.id = ${event.subjectId} and m.subject_type = 'writing')`);
  },
});
