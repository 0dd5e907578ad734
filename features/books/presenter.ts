import type { books } from "../../server/db/schema/index.ts";
import { attachmentUrl } from "../attachments/constants.ts";
import type { BookState } from "./schema.ts";

export type BookRow = typeof books.$inferSelect;

export interface BookAuthor {
  id: number;
  username: string;
  nickname: string;
  avatar: string | null;
}

export interface ChapterListItem {
  id: number;
  number: number;
  title: string;
  textLength: number;
  updatedAt: string;
}

/** A book as lists show it. */
export interface BookSummary {
  id: number;
  circleId: number;
  name: string;
  description: string;
  /** /attach/{file_id}, or null. */
  cover: string | null;
  coverFileId: string | null;
  state: BookState;
  views: number;
  author: BookAuthor;
  chapterCount: number;
  latestChapter: ChapterListItem | null;
  createdAt: string;
  /** "Last updated": the book's texts, state or a chapter changed. */
  updatedAt: string;
}

/** A book's page: the summary, its categories, its numbered chapters and what the viewer may do. */
export interface BookView extends BookSummary {
  categories: { id: number; name: string }[];
  chapters: ChapterListItem[];
  can: { edit: boolean; delete: boolean };
}

export function presentBookSummary(
  row: BookRow,
  author: BookAuthor,
  chapterCount: number,
  latestChapter: ChapterListItem | null,
): BookSummary {
  return {
    id: row.id,
    circleId: row.circleId,
    name: row.name,
    description: row.description,
    cover: row.coverFileId ? attachmentUrl(row.coverFileId) : null,
    coverFileId: row.coverFileId,
    state: row.state,
    views: row.views,
    author,
    chapterCount,
    latestChapter,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Where a book and its chapters are read. */
export function bookPath(book: { id: number; circleId: number }): string {
  return `/circles/${book.circleId}/books/${book.id}`;
}

export function chapterPath(book: { id: number; circleId: number }, chapterId: number): string {
  return `${bookPath(book)}/chapters/${chapterId}`;
}
