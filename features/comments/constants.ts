/** Limits and shapes of comments, without zod: the reading page's browser code imports these. */
export const commentMaxLength = 1000;
/** Top-level comments per page: the spec's "comment preview: first ten". */
export const commentPageSize = 10;
/** Replies shown under each top-level comment in a list. */
export const replyPreviewSize = 3;
/** Replies per page when a thread is opened (`GET /api/comments/{id}/replies/`, `?replies=` on the page). */
export const replyPageSize = 20;

/** Characters as people count them: code points (one per Chinese character, letter or emoji of one code point), as PostgreSQL's char_length. */
export const characterCount = (text: string): number => [...text].length;

export interface CommentAuthor {
  id: number;
  username: string;
  nickname: string;
  avatar: string | null;
}

/** A comment or reply as the API and the page get it (snake_case, the viewer's allowed actions). */
export interface PresentedComment {
  id: number;
  /** Empty for a deleted comment. */
  body: string;
  author: CommentAuthor | null;
  created_at: string;
  deleted: boolean;
  /** Replies only: whom the reply answers (the @ mention). */
  reply_to: { username: string; nickname: string } | null;
  can: { delete: boolean; reply: boolean };
}

export interface PresentedThread extends PresentedComment {
  /** The first replies (oldest first). */
  replies: PresentedComment[];
  /** Replies that are not deleted. */
  reply_count: number;
}

export interface CommentPage {
  items: PresentedThread[];
  next_cursor: number | null;
  /** Comments and replies on the subject that are not deleted. */
  total: number;
}

export interface ReplyPage {
  items: PresentedComment[];
  next_cursor: number | null;
  total: number;
}
