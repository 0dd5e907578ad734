import type { Viewer } from "../accounts/viewer.ts";
import { commentPermissions, type CommentSubjectRules } from "./policy.ts";
import type { ReplyRow, ThreadPageRow, ThreadRow } from "./queries.ts";
import type { CommentPage, PresentedComment, PresentedThread } from "./schema.ts";

const iso = (value: string): string => new Date(value).toISOString();

export function presentReply(row: ReplyRow, viewer: Viewer | null, subject: CommentSubjectRules): PresentedComment {
  return {
    id: row.id,
    body: row.body,
    author: row.author,
    created_at: iso(row.created_at),
    deleted: false,
    reply_to: row.reply_to ? { username: row.reply_to.username, nickname: row.reply_to.nickname } : null,
    can: commentPermissions(viewer, { subject, comment: { authorId: row.author.id, deleted: false } }),
  };
}

export function presentThread(row: ThreadRow, viewer: Viewer | null, subject: CommentSubjectRules): PresentedThread {
  return {
    id: row.id,
    body: row.deleted ? "" : row.body,
    author: row.deleted ? null : row.author,
    created_at: iso(row.created_at),
    deleted: row.deleted,
    reply_to: null,
    replies: row.replies.map((reply) => presentReply(reply, viewer, subject)),
    reply_count: Number(row.reply_count),
    can: commentPermissions(viewer, {
      subject,
      comment: row.deleted || !row.author ? { authorId: 0, deleted: true } : { authorId: row.author.id, deleted: false },
    }),
  };
}

/** A page of threads as the API and the page get it; the query read `limit + 1` to know whether more follow. */
export function presentThreadPage(page: ThreadPageRow, viewer: Viewer | null, subject: CommentSubjectRules, limit: number): CommentPage {
  const items = page.items.slice(0, limit);
  return {
    items: items.map((row) => presentThread(row, viewer, subject)),
    next_cursor: page.items.length > limit ? (items.at(-1)?.id ?? null) : null,
    total: Number(page.total),
  };
}
