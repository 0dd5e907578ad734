import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { comments, users } from "../../server/db/schema/index.ts";
import type { Transaction } from "../../server/lib/transactions.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { presentReply } from "./presenter.ts";
import type { CreateCommentInput, PresentedComment } from "./schema.ts";
import type { CommentSubject } from "./subjects.ts";

/** A post repeating the viewer's own comment this recently is a retry or a double click, not a new comment. */
export const repeatedPostWindowSeconds = 10;

/**
 * The comment this post repeats, presented as when it was posted: the same text by the same user
 * on the same subject (and the same thread, for a reply) within `repeatedPostWindowSeconds`.
 * Call it under the per-user comment lock, so that of simultaneous identical posts only the first
 * is stored and the others find it.
 */
export async function repeatedPost(
  tx: Transaction,
  viewer: Viewer,
  subject: CommentSubject,
  input: CreateCommentInput,
): Promise<PresentedComment | null> {
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
  const mentioned = alias(users, "mentioned");
  const [row] = await tx.db
    .select({
      id: comments.id,
      body: comments.body,
      createdAt: comments.createdAt,
      replyTo: { id: mentioned.id, username: mentioned.username, nickname: mentioned.nickname },
    })
    .from(comments)
    .leftJoin(mentioned, eq(mentioned.id, comments.replyToUserId))
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
  if (!row) return null;
  return presentReply(
    {
      id: row.id,
      body: row.body,
      created_at: row.createdAt.toISOString(),
      author: { id: viewer.id, username: viewer.username, nickname: viewer.nickname, avatar: viewer.avatar },
      reply_to: input.parent_id == null ? null : row.replyTo,
    },
    viewer,
    subject,
  );
}
