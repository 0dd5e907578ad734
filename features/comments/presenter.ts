import type { Viewer } from "../accounts/viewer.ts";
import { commentPermissions, type CommentSubjectRules } from "./policy.ts";
import type { ReplyRow, ThreadPageRow, ThreadRow } from "./queries.ts";
import type { CommentPage, PresentedComment, PresentedThread } from "./schema.ts";

const iso = (value: string): string => new Date(value).toISOString();

/** What presenting needs besides the rows: the clock (the edit window) and the viewer's reactions to the comments shown. */
export interface CommentPresentation {
  now: Date;
  /** Comment id → the viewer's reaction (empty for visitors). */
  reactions: ReadonlyMap<number, "like" | "dislike">;
}

type CommentFields = Pick<ReplyRow, "like_count" | "dislike_count" | "edited_at" | "mentions">;

/** The fields every comment has besides text and author: counts (dislikes for its author only), edit time, mentions, the viewer's reaction. */
function extras(row: CommentFields & { id: number }, authorId: number | null, viewer: Viewer | null, presentation: CommentPresentation) {
  return {
    edited_at: row.edited_at ? iso(row.edited_at) : null,
    mentions: row.mentions.map((user) => ({ username: user.username, nickname: user.nickname })),
    like_count: Number(row.like_count),
    ...(viewer !== null && authorId === viewer.id ? { dislike_count: Number(row.dislike_count) } : {}),
    reaction: presentation.reactions.get(row.id) ?? null,
  };
}

export function presentReply(
  row: ReplyRow,
  viewer: Viewer | null,
  subject: CommentSubjectRules,
  presentation: CommentPresentation,
): PresentedComment {
  return {
    id: row.id,
    body: row.body,
    author: row.author,
    created_at: iso(row.created_at),
    deleted: false,
    reply_to: row.reply_to ? { username: row.reply_to.username, nickname: row.reply_to.nickname } : null,
    ...extras(row, row.author.id, viewer, presentation),
    can: commentPermissions(viewer, {
      subject,
      comment: { authorId: row.author.id, deleted: false, createdAt: new Date(row.created_at) },
      now: presentation.now,
    }),
  };
}

export function presentThread(
  row: ThreadRow,
  viewer: Viewer | null,
  subject: CommentSubjectRules,
  presentation: CommentPresentation,
): PresentedThread {
  const live = !row.deleted && row.author !== null;
  return {
    id: row.id,
    body: live ? row.body : "",
    author: live ? row.author : null,
    created_at: iso(row.created_at),
    deleted: !live,
    reply_to: null,
    ...extras(live ? row : { ...row, mentions: [] }, live ? row.author!.id : null, viewer, presentation),
    replies: row.replies.map((reply) => presentReply(reply, viewer, subject, presentation)),
    reply_count: Number(row.reply_count),
    can: commentPermissions(viewer, {
      subject,
      comment: live
        ? { authorId: row.author!.id, deleted: false, createdAt: new Date(row.created_at) }
        : { authorId: 0, deleted: true, createdAt: new Date(row.created_at) },
      now: presentation.now,
    }),
  };
}

/** A page of threads as the API and the page get it; the query read `limit + 1` to know whether more follow. */
export function presentThreadPage(
  page: ThreadPageRow,
  viewer: Viewer | null,
  subject: CommentSubjectRules,
  limit: number,
  presentation: CommentPresentation,
): CommentPage {
  const items = page.items.slice(0, limit);
  return {
    items: items.map((row) => presentThread(row, viewer, subject, presentation)),
    next_cursor: page.items.length > limit ? (items.at(-1)?.id ?? null) : null,
    total: Number(page.total),
  };
}

/**
 * The comments on a page the viewer may have reacted to: only those with a like or dislike (the
 * counts are exact), so a page whose comments nobody reacted to asks nothing more.
 */
export function reactedCommentIds(page: {
  items: (CommentFields & { id: number; replies?: (CommentFields & { id: number })[] })[];
}): number[] {
  return page.items
    .flatMap((item) => [item, ...(item.replies ?? [])])
    .filter((item) => Number(item.like_count) + Number(item.dislike_count) > 0)
    .map((item) => item.id);
}
