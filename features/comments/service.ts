import { and, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { comments, users } from "../../server/db/schema/index.ts";
import { inTransaction, type ServiceOptions, type Transaction } from "../../server/lib/transactions.ts";
import { AppError } from "../../common/app-error.ts";
import { authorize } from "../../common/policy.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { can } from "./policy.ts";
import { presentReply, presentThreadPage } from "./presenter.ts";
import { firstThreadPage, replyPage, threadPage } from "./queries.ts";
import {
  commentPageSize,
  replyPageSize,
  type CommentPage,
  type CreateCommentInput,
  type PresentedComment,
  type ReplyPage,
} from "./schema.ts";
import { loadCommentSubject, type CommentSubject } from "./subjects.ts";
import { emit } from "../events/bus.ts";
import { repeatedPost } from "./duplicates.ts";

export type CommentRow = typeof comments.$inferSelect;

/**
 * How fast one user may comment, counted from their comment rows (deleted ones too) under a
 * per-user lock, so the API and the page form share it across processes: a person writes a few
 * comments a minute at most; a script writing more is refused with a localized 429.
 */
export const commentRateLimits = [
  { windowSeconds: 60, max: 6 },
  { windowSeconds: 3600, max: 60 },
] as const;

async function checkRate(tx: Transaction, userId: number): Promise<void> {
  await tx.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`comments:user:${userId}`}))`);
  for (const limit of commentRateLimits) {
    const [row] = await tx.db
      .select({ count: sql<number>`count(*)`.mapWith(Number), oldest: sql<string | null>`min(${comments.createdAt})::text` })
      .from(comments)
      .where(and(eq(comments.authorId, userId), sql`${comments.createdAt} > now() - make_interval(secs => ${limit.windowSeconds})`));
    if (row && row.count >= limit.max) {
      const elapsed = row.oldest ? (Date.now() - new Date(row.oldest).getTime()) / 1000 : 0;
      throw new AppError("rate_limited", { params: { seconds: Math.max(1, Math.ceil(limit.windowSeconds - elapsed)) } });
    }
  }
}

async function commentById(db: Executor, id: number): Promise<CommentRow | undefined> {
  const [row] = await db.select().from(comments).where(eq(comments.id, id)).limit(1);
  return row;
}

/**
 * Posts a comment on a subject the viewer may read, or a reply (`parent_id`): a reply to a reply
 * joins its top-level comment and mentions the replied reply's author. Notifies in the same
 * transaction: a top-level comment raises the subject author's `unread_comment_count`, a reply the
 * replied user's `unread_replies` (never one's own).
 */
export async function postComment(
  options: ServiceOptions,
  viewer: Viewer,
  subjectRef: { type: string; id: number },
  input: CreateCommentInput,
): Promise<PresentedComment> {
  const subject = await loadCommentSubject(options.db, viewer, subjectRef.type, subjectRef.id);
  authorize(viewer, can(viewer, "post", { subject }));
  return inTransaction(options, async (tx) => {
    await checkRate(tx, viewer.id);
    const repeated = await repeatedPost(tx, viewer, subject, input);
    if (repeated) return repeated;
    let parentId: number | null = null;
    let replyTo: { id: number; username: string; nickname: string } | null = null;
    if (input.parent_id != null) {
      const parent = await commentById(tx.db, input.parent_id);
      if (!parent || parent.subjectType !== subject.type || parent.subjectId !== subject.id) {
        throw new AppError("validation_failed", { fields: { parent_id: "validation:comment_parent_invalid" } });
      }
      if (!can(viewer, "reply", { subject, comment: { authorId: parent.authorId, deleted: parent.deletedAt !== null } })) {
        throw new AppError("validation_failed", { fields: { parent_id: "validation:comment_parent_deleted" } });
      }
      parentId = parent.parentId ?? parent.id;
      const [mentioned] = await tx.db
        .select({ id: users.id, username: users.username, nickname: users.nickname })
        .from(users)
        .where(eq(users.id, parent.authorId))
        .limit(1);
      replyTo = mentioned ?? null;
    }
    const [row] = await tx.db
      .insert(comments)
      .values({
        subjectType: subject.type,
        subjectId: subject.id,
        authorId: viewer.id,
        parentId,
        replyToUserId: replyTo?.id ?? null,
        body: input.body,
      })
      .returning();
    const comment = row!;
    await emit(tx, {
      actorId: viewer.id,
      verb: "comment.created",
      subjectId: comment.id,
      data: { subjectType: subject.type, subjectId: subject.id, parentId, replyToUserId: replyTo?.id ?? null },
      // A top-level comment concerns the subject's author, a reply the user it answers.
      recipientIds: parentId === null ? (subject.authorId === null ? [] : [subject.authorId]) : replyTo ? [replyTo.id] : [],
    });
    tx.invalidate(...subject.tags.comments, ...subject.tags.counts);
    return presentReply(
      {
        id: comment.id,
        body: comment.body,
        created_at: comment.createdAt.toISOString(),
        author: { id: viewer.id, username: viewer.username, nickname: viewer.nickname, avatar: viewer.avatar },
        reply_to: parentId === null ? null : replyTo,
      },
      viewer,
      subject,
    );
  });
}

/**
 * Deletes a comment or reply for good (its author, the subject's author, the circle's moderators).
 * The row stays, marked deleted: a top-level comment with replies then reads "This comment was
 * deleted." above them; anything else disappears from every list.
 */
export async function deleteComment(options: ServiceOptions, viewer: Viewer, id: number): Promise<void> {
  const comment = await commentById(options.db, id);
  if (!comment || comment.deletedAt) throw new AppError("not_found");
  const subject = await loadCommentSubject(options.db, viewer, comment.subjectType, comment.subjectId);
  authorize(viewer, can(viewer, "delete", { subject, comment: { authorId: comment.authorId, deleted: false } }));
  await inTransaction(options, async (tx) => {
    if (!(await removeComment(tx, comment, subject, viewer.id))) throw new AppError("not_found");
  });
}

/** The deletion itself: `deleteComment` after its checks, and moderation decisions (the registry's `remove`). False when already deleted. */
export async function removeComment(
  tx: Transaction,
  comment: Pick<CommentRow, "id" | "authorId" | "parentId">,
  subject: Pick<CommentSubject, "type" | "id" | "tags">,
  actorId: number,
): Promise<boolean> {
  const [deleted] = await tx.db
    .update(comments)
    .set({ deletedAt: sql`now()` })
    .where(and(eq(comments.id, comment.id), isNull(comments.deletedAt)))
    .returning({ id: comments.id });
  if (!deleted) return false;
  await emit(tx, {
    actorId,
    verb: "comment.deleted",
    subjectId: comment.id,
    data: { subjectType: subject.type, subjectId: subject.id, authorId: comment.authorId, parentId: comment.parentId },
  });
  tx.invalidate(...subject.tags.comments, ...subject.tags.counts);
  return true;
}

/** A page of a subject's comments (newest first, with their first replies); the first page is remembered. */
export async function listComments(
  db: Executor,
  viewer: Viewer | null,
  subject: CommentSubject,
  cursor: number | null = null,
): Promise<CommentPage> {
  authorize(viewer, can(viewer, "read", { subject }));
  const page =
    cursor === null
      ? await firstThreadPage(db, subject.type, subject.id, subject.tags.comments)
      : await threadPage(db, subject.type, subject.id, cursor);
  return presentThreadPage(page, viewer, subject, commentPageSize);
}

/** A subject's comments by its type and id, for the API (404 when the viewer may not read it). */
export async function listCommentsOf(
  db: Executor,
  viewer: Viewer | null,
  subjectRef: { type: string; id: number },
  cursor: number | null = null,
): Promise<CommentPage> {
  const subject = await loadCommentSubject(db, viewer, subjectRef.type, subjectRef.id);
  return listComments(db, viewer, subject, cursor);
}

/** A page of a top-level comment's replies, oldest first (404 for an unknown comment, a reply, or a subject the viewer may not read). */
export async function listReplies(
  db: Executor,
  viewer: Viewer | null,
  commentId: number,
  cursor: number | null = null,
  subject?: CommentSubject,
): Promise<ReplyPage> {
  const comment = await commentById(db, commentId);
  if (!comment || comment.parentId !== null) throw new AppError("not_found");
  const rules =
    subject && subject.type === comment.subjectType && subject.id === comment.subjectId
      ? subject
      : await loadCommentSubject(db, viewer, comment.subjectType, comment.subjectId);
  authorize(viewer, can(viewer, "read", { subject: rules }));
  const page = await replyPage(db, commentId, cursor);
  const items = page.items.slice(0, replyPageSize);
  return {
    items: items.map((row) => presentReply(row, viewer, rules)),
    next_cursor: page.items.length > replyPageSize ? (items.at(-1)?.id ?? null) : null,
    total: Number(page.total),
  };
}
