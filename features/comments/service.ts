import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { commentMentions, comments, users } from "../../server/db/schema/index.ts";
import { inTransaction, type ServiceOptions, type Transaction } from "../../server/lib/transactions.ts";
import { AppError } from "../../common/app-error.ts";
import { authorize } from "../../common/policy.ts";
import { presentViewer, type Viewer } from "../accounts/viewer.ts";
import type { UserType } from "../accounts/constants.ts";
import { viewerReactions } from "../reactions/viewer-state.ts";
import { can, withinEditWindow } from "./policy.ts";
import { presentReply, presentThreadPage, reactedCommentIds, type CommentPresentation } from "./presenter.ts";
import { commentsOnContentOf, firstThreadPage, placedComment, replyPage, threadPage, type PlacedCommentRow } from "./queries.ts";
import {
  commentMentionLimit,
  commentPageSize,
  mentionedUsernames,
  replyPageSize,
  type CommentPage,
  type CommentSort,
  type CreateCommentInput,
  type EditCommentInput,
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

/** The viewer's reactions to these comments (those anyone reacted to: `reactedCommentIds`), for their toggles (none for visitors). */
async function presentationFor(db: Executor, viewer: Viewer | null, ids: number[], now: Date): Promise<CommentPresentation> {
  return { now, reactions: viewer && ids.length > 0 ? await viewerReactions(db, viewer.id, "comment", ids) : new Map() };
}

/** A comment just written (or found again), read back as lists show it. */
async function presentPlaced(
  executor: Executor,
  viewer: Viewer,
  subject: CommentSubject,
  id: number,
  now: Date,
): Promise<PresentedComment> {
  const row = await placedComment(executor, id);
  if (!row) throw new AppError("not_found");
  return presentReply(row, viewer, subject, await presentationFor(executor, viewer, [id], now));
}

/** A mentioned user: who they are, and whether they may read the subject (only those are told). */
interface Mention {
  id: number;
  told: boolean;
}

/**
 * The users a text mentions (`@username` of existing users, at most `commentMentionLimit`), and
 * which of them may read the subject: someone who may not read it is still linked, never told
 * (a notification must not reveal a hidden circle's content). Read before the transaction opens.
 */
async function resolveMentions(db: Executor, subject: CommentSubject, text: string): Promise<Mention[]> {
  const names = mentionedUsernames(text).slice(0, commentMentionLimit);
  if (names.length === 0) return [];
  const rows = await db
    .select({ id: users.id, username: users.username, nickname: users.nickname, userType: users.userType, avatar: users.avatar })
    .from(users)
    .where(inArray(sql`lower(${users.username})`, names));
  const mentions: Mention[] = [];
  for (const row of rows) {
    let told = true;
    try {
      await loadCommentSubject(db, presentViewer({ ...row, userType: row.userType as UserType }), subject.type, subject.id);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      told = false;
    }
    mentions.push({ id: row.id, told });
  }
  return mentions;
}

/** Writes a comment's mentions and tells those newly mentioned (never the actor), in the caller's transaction. */
async function recordMentions(
  tx: Transaction,
  viewer: Viewer,
  subject: CommentSubject,
  comment: { id: number; parentId: number | null },
  mentions: Mention[],
  before: number[] = [],
): Promise<void> {
  await tx.db.delete(commentMentions).where(eq(commentMentions.commentId, comment.id));
  if (mentions.length === 0) return;
  await tx.db
    .insert(commentMentions)
    .values(mentions.map((mention) => ({ commentId: comment.id, userId: mention.id })))
    .onConflictDoNothing();
  const told = mentions.filter((mention) => mention.told && mention.id !== viewer.id && !before.includes(mention.id));
  if (told.length === 0) return;
  await emit(tx, {
    actorId: viewer.id,
    verb: "comment.mentioned",
    subjectId: comment.id,
    data: { subjectType: subject.type, subjectId: subject.id, parentId: comment.parentId },
    recipientIds: told.map((mention) => mention.id),
  });
}

/**
 * Posts a comment on a subject the viewer may read, or a reply (`parent_id`): a reply to a reply
 * joins its top-level comment and mentions the replied reply's author. In the same transaction:
 * the `comment.created` event, whose recipients are the subject's author for a top-level comment
 * and, for a reply, the replied user and the thread's top-level author (never oneself); a
 * `comment.mentioned` event for the `@username`s who may read the subject.
 */
export async function postComment(
  options: ServiceOptions & { now?: Date },
  viewer: Viewer,
  subjectRef: { type: string; id: number },
  input: CreateCommentInput,
): Promise<PresentedComment> {
  const now = options.now ?? new Date();
  const subject = await loadCommentSubject(options.db, viewer, subjectRef.type, subjectRef.id);
  authorize(viewer, can(viewer, "post", { subject }));
  const mentions = await resolveMentions(options.db, subject, input.body);
  return inTransaction(options, async (tx) => {
    await checkRate(tx, viewer.id);
    const repeated = await repeatedPost(tx, viewer, subject, input);
    if (repeated !== null) return presentPlaced(tx.db, viewer, subject, repeated, now);
    let parentId: number | null = null;
    let threadAuthorId: number | null = null;
    let replyTo: { id: number } | null = null;
    if (input.parent_id != null) {
      const parent = await commentById(tx.db, input.parent_id);
      if (!parent || parent.subjectType !== subject.type || parent.subjectId !== subject.id) {
        throw new AppError("validation_failed", { fields: { parent_id: "validation:comment_parent_invalid" } });
      }
      if (!can(viewer, "reply", { subject, comment: { authorId: parent.authorId, deleted: parent.deletedAt !== null } })) {
        throw new AppError("validation_failed", { fields: { parent_id: "validation:comment_parent_deleted" } });
      }
      parentId = parent.parentId ?? parent.id;
      const thread = parent.parentId === null ? parent : await commentById(tx.db, parent.parentId);
      threadAuthorId = thread && thread.deletedAt === null ? thread.authorId : null;
      const [mentioned] = await tx.db.select({ id: users.id }).from(users).where(eq(users.id, parent.authorId)).limit(1);
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
    // A top-level comment concerns the subject's author; a reply the user it answers and the thread's author.
    const recipients = parentId === null ? [subject.authorId] : [replyTo?.id, threadAuthorId];
    await emit(tx, {
      actorId: viewer.id,
      verb: "comment.created",
      subjectId: comment.id,
      data: {
        subjectType: subject.type,
        subjectId: subject.id,
        subjectAuthorId: subject.authorId,
        parentId,
        replyToUserId: replyTo?.id ?? null,
      },
      recipientIds: [...new Set(recipients.filter((id): id is number => typeof id === "number"))],
    });
    await recordMentions(tx, viewer, subject, { id: comment.id, parentId }, mentions);
    tx.invalidate(...subject.tags.comments, ...subject.tags.counts);
    return presentPlaced(tx.db, viewer, subject, comment.id, now);
  });
}

/**
 * Changes a comment's text: its author only, within `commentEditWindowSeconds` of posting
 * (afterwards `403 comment_edit_expired`); the comment shows "edited" with the time. Mentions are
 * written again, and only users not mentioned before are told.
 */
export async function editComment(
  options: ServiceOptions & { now?: Date },
  viewer: Viewer,
  id: number,
  input: EditCommentInput,
): Promise<PresentedComment> {
  const now = options.now ?? new Date();
  const comment = await commentById(options.db, id);
  if (!comment || comment.deletedAt) throw new AppError("not_found");
  const subject = await loadCommentSubject(options.db, viewer, comment.subjectType, comment.subjectId);
  authorize(viewer, comment.authorId === viewer.id && can(viewer, "read", { subject }));
  if (!withinEditWindow(comment.createdAt, now)) throw new AppError("comment_edit_expired");
  const mentions = await resolveMentions(options.db, subject, input.body);
  return inTransaction(options, async (tx) => {
    const before = await tx.db.select({ userId: commentMentions.userId }).from(commentMentions).where(eq(commentMentions.commentId, id));
    const [edited] = await tx.db
      .update(comments)
      .set({ body: input.body, editedAt: now })
      .where(and(eq(comments.id, id), isNull(comments.deletedAt)))
      .returning({ id: comments.id });
    if (!edited) throw new AppError("not_found");
    await emit(tx, {
      actorId: viewer.id,
      verb: "comment.edited",
      subjectId: id,
      data: { subjectType: subject.type, subjectId: subject.id, parentId: comment.parentId },
    });
    await recordMentions(
      tx,
      viewer,
      subject,
      { id, parentId: comment.parentId },
      mentions,
      before.map((row) => row.userId),
    );
    tx.invalidate(...subject.tags.comments);
    return presentPlaced(tx.db, viewer, subject, id, now);
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
  subject: Pick<CommentSubject, "type" | "id" | "tags" | "authorId">,
  actorId: number,
): Promise<boolean> {
  const [deleted] = await tx.db
    .update(comments)
    .set({ deletedAt: sql`now()` })
    .where(and(eq(comments.id, comment.id), isNull(comments.deletedAt)))
    .returning({ id: comments.id, hiddenAt: comments.hiddenAt });
  if (!deleted) return false;
  await emit(tx, {
    actorId,
    verb: "comment.deleted",
    subjectId: comment.id,
    data: {
      subjectType: subject.type,
      subjectId: subject.id,
      subjectAuthorId: subject.authorId,
      authorId: comment.authorId,
      parentId: comment.parentId,
      hidden: deleted.hiddenAt !== null,
    },
  });
  tx.invalidate(...subject.tags.comments, ...subject.tags.counts);
  return true;
}

/** How a list of comments is asked for: which page (a cursor), in which order, at what time (the edit window). */
export interface CommentListOptions {
  cursor?: number | null;
  sort?: CommentSort;
  now?: Date;
}

/** A page of a subject's comments (newest first by default, with their first replies); each order's first page is remembered. */
export async function listComments(
  db: Executor,
  viewer: Viewer | null,
  subject: CommentSubject,
  options: CommentListOptions = {},
): Promise<CommentPage> {
  authorize(viewer, can(viewer, "read", { subject }));
  const cursor = options.cursor ?? null;
  const sort = options.sort ?? "newest";
  const page =
    cursor === null
      ? await firstThreadPage(db, subject.type, subject.id, subject.tags.comments, sort)
      : await threadPage(db, subject.type, subject.id, cursor, sort);
  const presentation = await presentationFor(db, viewer, reactedCommentIds(page), options.now ?? new Date());
  return presentThreadPage(page, viewer, subject, commentPageSize, presentation);
}

/** A subject's comments by its type and id, for the API (404 when the viewer may not read it, or the kind takes no comments). */
export async function listCommentsOf(
  db: Executor,
  viewer: Viewer | null,
  subjectRef: { type: string; id: number },
  options: CommentListOptions = {},
): Promise<CommentPage> {
  const subject = await loadCommentSubject(db, viewer, subjectRef.type, subjectRef.id);
  return listComments(db, viewer, subject, options);
}

/** A page of a top-level comment's replies, oldest first (404 for an unknown comment, a reply, or a subject the viewer may not read). */
export async function listReplies(
  db: Executor,
  viewer: Viewer | null,
  commentId: number,
  cursor: number | null = null,
  subject?: CommentSubject,
  now: Date = new Date(),
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
  const presentation = await presentationFor(db, viewer, reactedCommentIds({ items }), now);
  return {
    items: items.map((row) => presentReply(row, viewer, rules, presentation)),
    next_cursor: page.items.length > replyPageSize ? (items.at(-1)?.id ?? null) : null,
    total: Number(page.total),
  };
}

/** A comment on someone's content, with where it is: the subject as the owner may see it now (null when they no longer may). */
export interface ContentComment extends PresentedComment {
  subject: { type: string; id: number; title: string; path: string } | null;
  parent_id: number | null;
}

/**
 * Comments and replies on the content of `owner` (every commentable kind they are the author of),
 * newest first, `limit` a page after comment `cursor`: the creator's desk
 * (`/creator/manage/comment`) lists them to reply, delete or report. Their own comments are left
 * out unless `includeOwn`. Each names its subject as the owner may see it; the `can` flags are the
 * owner's (the subject's author may delete any comment on it).
 */
export async function listCommentsOnContentOf(
  db: Executor,
  owner: Viewer,
  options: { cursor?: number | null; limit?: number; includeOwn?: boolean; now?: Date } = {},
): Promise<{ items: ContentComment[]; next_cursor: number | null }> {
  const limit = Math.min(Math.max(options.limit ?? 20, 1), 100);
  const rows = await commentsOnContentOf(db, owner.id, options.cursor ?? null, limit + 1, options.includeOwn ?? false);
  const shown = rows.slice(0, limit);
  const subjects = new Map<string, CommentSubject | null>();
  for (const row of shown) {
    const key = `${row.subject_type}:${row.subject_id}`;
    if (subjects.has(key)) continue;
    try {
      subjects.set(key, await loadCommentSubject(db, owner, row.subject_type, row.subject_id));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      subjects.set(key, null);
    }
  }
  const presentation = await presentationFor(db, owner, reactedCommentIds({ items: shown }), options.now ?? new Date());
  const items = shown.map((row: PlacedCommentRow): ContentComment => {
    const subject = subjects.get(`${row.subject_type}:${row.subject_id}`) ?? null;
    // A subject the owner no longer may read still names no one's rights: nothing is allowed then.
    const presented = presentReply(row, owner, subject ?? { authorId: null, access: null }, presentation);
    return {
      ...presented,
      can: subject ? presented.can : { delete: false, reply: false, edit: false },
      subject: subject ? { type: subject.type, id: subject.id, title: subject.title, path: subject.path } : null,
      parent_id: row.parent_id,
    };
  });
  return { items, next_cursor: rows.length > limit ? (shown.at(-1)?.id ?? null) : null };
}
