/** Limits and shapes of comments, without zod: the reading page's browser code imports these. */
export const commentMaxLength = 1000;
/** Top-level comments per page: the spec's "comment preview: first ten". */
export const commentPageSize = 10;
/** Replies shown under each top-level comment in a list. */
export const replyPreviewSize = 3;
/** Replies per page when a thread is opened (`GET /api/comments/{id}/replies/`, `?replies=` on the page). */
export const replyPageSize = 20;

/** How long after posting its author may still edit a comment. */
export const commentEditWindowSeconds = 10 * 60;
/** At most this many users are mentioned (and told) per comment; further @names stay plain text. */
export const commentMentionLimit = 10;

/** The orders of a subject's comments (`?comment_sort=` on pages, `?sort=` in the API); newest first by default. */
export const commentSorts = ["newest", "oldest", "liked"] as const;
export type CommentSort = (typeof commentSorts)[number];
export const isCommentSort = (value: unknown): value is CommentSort => (commentSorts as readonly unknown[]).includes(value);

/**
 * `@username` in a comment's text: a username's characters (2 to 16 letters, digits, `_`, `-`)
 * after `@` at the start or after anything that cannot end an address (so `a@b.com` mentions nobody).
 */
export const mentionPattern = /(^|[^A-Za-z0-9_.@-])@([A-Za-z0-9_-]{2,16})(?![A-Za-z0-9_-])/g;

/** The usernames a text mentions, lower-cased, each once, in order of appearance. */
export function mentionedUsernames(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(mentionPattern)) names.add(match[2]!.toLowerCase());
  return [...names];
}

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
  /** When its author last edited it; null when never. */
  edited_at: string | null;
  deleted: boolean;
  /** Replies only: whom the reply answers (the @ mention). */
  reply_to: { username: string; nickname: string } | null;
  /** The users its `@username`s name (linked to their profiles). */
  mentions: { username: string; nickname: string }[];
  like_count: number;
  /** Only for the comment's author (no public downvote counts). */
  dislike_count?: number;
  /** The viewer's own reaction (null for visitors). */
  reaction: "like" | "dislike" | null;
  /** `edit`: its author, within `commentEditWindowSeconds` of posting. */
  can: { delete: boolean; reply: boolean; edit: boolean };
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
