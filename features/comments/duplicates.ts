import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import { comments } from "../../server/db/schema/index.ts";
import type { Transaction } from "../../server/lib/transactions.ts";
import type { Viewer } from "../accounts/viewer.ts";
import type { CreateCommentInput } from "./schema.ts";
import type { CommentSubject } from "./subjects.ts";

/** A post repeating the viewer's own comment this recently is a retry or a double click, not a new comment. */
export const repeatedPostWindowSeconds = 10;

/**
 * The id of the comment this post repeats (the caller presents it as when it was posted): the same text by the same user
 * on the same subject (and the same thread, for a reply) within `repeatedPostWindowSeconds`.
 * Call it under the per-user comment lock, so that of simultaneous identical posts only the first
 * is stored and the others find it.
 */
export async function repeatedPost(
  tx: Transaction,
  viewer: Viewer,
  subject: CommentSubject,
  input: CreateCommentInput,
): Promise<number | null> {
  // A reply is stored under its thread's top-level comment: the one named, or the one it belongs to.
  let sameThread: SQL = isNull(comments.parentId);
  if (input.parent_id != null) {
    const [parent] = await tx.db
      .select({ id: comments.id, parentId: comments.parentId })
      .from(comments)
      .where(eq(comments.id, input.parent_id));
    if (!parent) return null;
    sameThread = eq(comments.parentId, parent.parentId ?? parent.id);
  }
  const [row] = await tx.db
    .select({ id: comments.id })
    .from(comments)
    .where(
      and(
        eq(comments.authorId, viewer.id),
        eq(comments.subjectType, subject.type),
        eq(comments.subjectId, subject.id),
        eq(comments.body, input.body),
        isNull(comments.deletedAt),
        sameThread,
        sql`${comments.createdAt} > now() - make_interval(secs => ${repeatedPostWindowSeconds})`,
      ),
    )
    .orderBy(comments.id)
    .limit(1);
  return row?.id ?? null;
}
