import { z } from "zod";

/* The books API's answers (OpenAPI and the response serializer): the presented rows through `snakeKeys`. */

const chapterListItem = z.object({
  id: z.number(),
  number: z.number(),
  title: z.string(),
  text_length: z.number(),
  updated_at: z.string(),
});
const bookSummary = {
  id: z.number(),
  circle_id: z.number(),
  name: z.string(),
  description: z.string(),
  cover: z.string().nullable(),
  cover_file_id: z.string().nullable(),
  state: z.string(),
  views: z.number(),
  author: z.object({ id: z.number(), username: z.string(), nickname: z.string(), avatar: z.string().nullable() }),
  chapter_count: z.number(),
  latest_chapter: chapterListItem.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
};

export const bookListAnswer = z.object({
  books: z.array(z.object(bookSummary)),
  page: z.number(),
  page_count: z.number(),
  total: z.number(),
  can: z.object({ create: z.boolean() }),
});
export const bookAnswer = z.object({
  ...bookSummary,
  categories: z.array(z.object({ id: z.number(), name: z.string() })),
  chapters: z.array(chapterListItem),
  can: z.object({ edit: z.boolean(), delete: z.boolean() }),
  url: z.string(),
});
const chapterView = z.object({
  id: z.number(),
  book_id: z.number(),
  number: z.number(),
  title: z.string(),
  markdown: z.string(),
  html: z.string(),
  toc: z.array(z.object({ depth: z.number(), text: z.string(), id: z.string() })),
  text_length: z.number(),
  reading_minutes: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const chapterAnswer = chapterView;
export const chapterPageAnswer = z.object({
  chapter: chapterView,
  chapters: z.array(chapterListItem),
  previous: chapterListItem.nullable(),
  next: chapterListItem.nullable(),
});
export const createdBookAnswer = z.object({ id: z.number(), url: z.string() });
export const createdChapterAnswer = z.object({ id: z.number(), number: z.number(), url: z.string() });
