/** The home feed's tabs, its cards and cursors: shared by the feed service, the kinds' registrations and the pages. */
import type { AuthorCard } from "../writings/queries.ts";

export const feedTabs = ["latest", "hot", "all", "follow"] as const;
export type FeedTab = (typeof feedTabs)[number];

/** One card of a feed: a writing, a new book or a new chapter (questions, answers, entries later). */
export interface FeedCard {
  /** Unique in a feed: `<kind>-<id>`. */
  key: string;
  /** The registered feed kind (`writing`, `book`, `chapter`). */
  kind: string;
  id: number;
  /** What the card says it is: a writing's type (`article`, `serial`, `post`) or the kind. */
  label: string;
  title: string;
  /** Without the /en prefix. */
  path: string;
  excerpt: string;
  language: "zh-CN" | "en" | null;
  coverFileId: string | null;
  author: AuthorCard;
  circleId: number;
  /** Published (writings, chapters) or created (books), ISO. */
  at: string;
  views: number;
  /** Null where the kind has no comments yet. */
  comments: number | null;
  likes: number;
  partNumber: number | null;
  /** For chapters: the book's name and the chapter's number. */
  bookName: string | null;
  chapterNumber: number | null;
}

export interface FeedPage {
  cards: FeedCard[];
  nextCursor: string | null;
}
