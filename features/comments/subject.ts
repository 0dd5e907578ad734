import { and, eq, inArray, sql } from "drizzle-orm";
import { comments } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { countsTag } from "../../server/lib/cache-tags.ts";
import { registerSubject, registerSubjectDependent } from "../subjects/registry.ts";
import { loadCommentSubject } from "./subjects.ts";

registerSubject({
  type: "comment",
  async load(db, viewer, id) {
    const [row] = await db.select().from(comments).where(eq(comments.id, id)).limit(1);
    if (!row || row.deletedAt) throw new AppError("not_found");
    // A comment is readable where its subject is, and shown in its subject's thread.
    const subject = await loadCommentSubject(db, viewer, row.subjectType, row.subjectId);
    const thread = subject.tags.comments;
    return {
      type: "comment",
      id: row.id,
      authorId: row.authorId,
      access: subject.access,
      title: row.body.length > 40 ? `${row.body.slice(0, 40)}…` : row.body,
      path: `${subject.path}#comment-${row.parentId ?? row.id}`,
      tags: { content: thread, counts: [countsTag("comment", row.id), ...thread], comments: thread },
    };
  },
});

/** Comments have no foreign key to their subject (it may live in any table): they go with it. */
registerSubjectDependent("comments", async (tx, type, ids) => {
  if (type === "comment") return;
  await tx.db.delete(comments).where(and(sql`${comments.subjectType} = ${type}`, inArray(comments.subjectId, ids)));
});
