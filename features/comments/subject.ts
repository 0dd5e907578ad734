import type { SubjectType } from "../subjects/types.ts";
import { and, eq, inArray, sql } from "drizzle-orm";
import { comments } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { commentsTag, countsTag, subjectPageTags } from "../../server/lib/cache-tags.ts";
import { registerSubject, registerSubjectDependent } from "../subjects/registry.ts";
import { loadCommentSubject } from "./subjects.ts";
import { removeComment } from "./service.ts";
import { assertNotHidden } from "../reports/visibility.ts";
import { bumpSubjectCounter } from "../subjects/counters.ts";

/** The thread and counts tags of a comment's subject, without loading it (moderation acts on subjects the moderator may not read in full). */
function subjectTagsOf(type: string, id: number) {
  return { content: [], counts: [countsTag(type, id)], comments: [commentsTag(type, id)] };
}

registerSubject({
  type: "comment",
  authorSql: (id) => `SELECT author_id FROM comments WHERE id = ${id}`,
  interactions: { reactions: true, favorites: true, shares: true, reports: true },
  async load(db, viewer, id) {
    const [row] = await db.select().from(comments).where(eq(comments.id, id)).limit(1);
    if (!row || row.deletedAt) throw new AppError("not_found");
    // A comment is readable where its subject is, and shown in its subject's thread.
    const subject = await loadCommentSubject(db, viewer, row.subjectType, row.subjectId);
    await assertNotHidden(db, viewer, { hiddenAt: row.hiddenAt, authorId: row.authorId, circleId: subject.access?.circle.id ?? null });
    const thread = subject.tags.comments;
    return {
      type: "comment",
      id: row.id,
      authorId: row.authorId,
      access: subject.access,
      title: row.body.length > 40 ? `${row.body.slice(0, 40)}…` : row.body,
      path: `${subject.path}#comment-${row.parentId ?? row.id}`,
      parent: { type: row.subjectType, id: row.subjectId },
      tags: { content: thread, counts: [countsTag("comment", row.id), ...thread], comments: thread },
      editedAt: null,
      hiddenAt: row.hiddenAt,
    };
  },
  async setHidden(tx, id, hiddenAt) {
    const [before] = await tx.db.select({ hiddenAt: comments.hiddenAt }).from(comments).where(eq(comments.id, id)).for("update");
    const [row] = await tx.db.update(comments).set({ hiddenAt }).where(eq(comments.id, id)).returning();
    if (!row || !before) return [];
    // The subject's comment count leaves hidden comments out (a deleted hidden one is not taken off twice).
    if ((before.hiddenAt === null) !== (hiddenAt === null) && row.deletedAt === null) {
      const subject = { type: row.subjectType as SubjectType, id: row.subjectId, authorId: null };
      await bumpSubjectCounter(tx, subject, "commentCount", hiddenAt === null ? 1 : -1);
    }
    // Its thread (and the subject's comment count) change: the subject's comments and counts tags.
    return [...subjectPageTags(row.subjectType, row.subjectId), countsTag("comment", row.id)];
  },
  async remove(tx, id, actorId) {
    const [row] = await tx.db.select().from(comments).where(eq(comments.id, id)).limit(1);
    if (!row) return;
    await removeComment(
      tx,
      row,
      // The subject's author is only needed for a counter row that does not exist yet (a deletion never makes one).
      { type: row.subjectType as SubjectType, id: row.subjectId, authorId: null, tags: subjectTagsOf(row.subjectType, row.subjectId) },
      actorId,
    );
  },
});

/** Comments have no foreign key to their subject (it may live in any table): they go with it. */
registerSubjectDependent("comments", async (tx, type, ids) => {
  if (type === "comment") return;
  await tx.db.delete(comments).where(and(sql`${comments.subjectType} = ${type}`, inArray(comments.subjectId, ids)));
});
