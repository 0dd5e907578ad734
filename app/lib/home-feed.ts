/** The home feed's tabs and cards, shared by its loader (home-feed.server.ts) and its components. */
import type { AuthorCard } from "../../features/writings/queries.ts";
import type { WritingLanguage, WritingType } from "../../features/writings/schema.ts";

export const homeTabs = ["latest", "hot", "all", "follow"] as const;
export type HomeTab = (typeof homeTabs)[number];

/** One card of the home feed: a writing, a new book or a new chapter. */
export interface FeedCardData {
  key: string;
  kind: WritingType | "book" | "chapter";
  title: string;
  /** Without the /en prefix. */
  path: string;
  excerpt: string;
  language: WritingLanguage | null;
  coverFileId: string | null;
  author: AuthorCard;
  circle: { id: number; name: string } | null;
  /** Published (writings, chapters) or created (books), ISO. */
  at: string;
  views: number;
  /** Null where comments do not exist yet (books and chapters). */
  comments: number | null;
  partNumber: number | null;
  /** For chapters: the book's name and the chapter's number. */
  bookName: string | null;
  chapterNumber: number | null;
}
