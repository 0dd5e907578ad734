import { z } from "zod";

/* The books API's answers (OpenAPI and the response serializer): the presented rows through `snakeKeys`. */

const chapterListItem = z.strictObject({
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
  author: z.strictObject({ id: z.number(), username: z.string(), nickname: z.string(), avatar: z.string().nullable() }),
  chapter_count: z.number(),
  latest_chapter: chapterListItem.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
};

export const bookListAnswer = z.strictObject({
  books: z.array(z.strictObject(bookSummary)),
  page: z.number(),
  page_count: z.number(),
  total: z.number(),
  can: z.strictObject({ create: z.boolean() }),
});
export const bookAnswer = z.strictObject({
  ...bookSummary,
  categories: z.array(z.strictObject({ id: z.number(), name: z.string() })),
  chapters: z.array(chapterListItem),
  can: z.strictObject({ edit: z.boolean(), delete: z.boolean() }),
  url: z.string(),
});
const chapterView = z.strictObject({
  id: z.number(),
  book_id: z.number(),
  number: z.number(),
  title: z.string(),
  markdown: z.string(),
  html: z.string(),
  toc: z.array(z.strictObject({ depth: z.number(), text: z.string(), id: z.string() })),
  text_length: z.number(),
  reading_minutes: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const chapterAnswer = chapterView;
export const chapterPageAnswer = z.strictObject({
  chapter: chapterView,
  chapters: z.array(chapterListItem),
  previous: chapterListItem.nullable(),
  next: chapterListItem.nullable(),
});
export const createdBookAnswer = z.strictObject({ id: z.number(), url: z.string() });
export const createdChapterAnswer = z.strictObject({ id: z.number(), number: z.number(), url: z.string() });
