import { z } from "zod";
import { idValueSchema } from "../../common/id.ts";
import { markdownSchema } from "../content/schema.ts";
import "./catalog.ts";
import { singleLinePattern } from "../../common/single-line.ts";

/**
 * Shared by the book forms in the browser and by the API and page actions on the server.
 * Messages are catalog keys (`books:validation.…` and the content pipeline's `validation:…`).
 */
export const bookStateValues = ["updating", "completed"] as const;
export type BookState = (typeof bookStateValues)[number];

export const bookNameMaxLength = 60;
export const bookDescriptionMaxLength = 2000;
export const chapterTitleMaxLength = 100;
/** A book is filed under at most this many of its circle's categories. */
export const bookCategoriesMax = 10;

const idSchema = idValueSchema();

export const bookNameSchema = z
  .string({ error: "books:validation.name_required" })
  .trim()
  .min(1, "books:validation.name_required")
  .max(bookNameMaxLength, "books:validation.name_length")
  .regex(singleLinePattern, "books:validation.name_chars");

export const bookDescriptionSchema = z
  .string({ error: "validation:invalid_value" })
  .trim()
  .max(bookDescriptionMaxLength, "books:validation.description_length");

export const bookCategoriesSchema = z
  .array(idSchema, { error: "validation:invalid_value" })
  .max(bookCategoriesMax, "books:validation.categories_max")
  .transform((ids) => [...new Set(ids)]);

/** An uploaded image's file id (`POST /api/uploads/`), or null for no cover. */
export const coverSchema = z
  .string({ error: "validation:invalid_value" })
  .regex(/^[A-Za-z0-9_-]{16,64}$/, "books:validation.cover_invalid")
  .nullable();

export const bookStateSchema = z.enum(bookStateValues, { error: "books:validation.state_invalid" });

/** POST /api/circles/{cid}/books/ and the new-book form. */
export const createBookSchema = z.strictObject({
  name: bookNameSchema,
  description: bookDescriptionSchema.default(""),
  categories: bookCategoriesSchema.default([]),
  cover: coverSchema.default(null),
});
export type CreateBookInput = z.output<typeof createBookSchema>;

/** PATCH /api/books/{id}/ and the edit form: any of the fields, and the state. */
export const updateBookSchema = z.strictObject({
  name: bookNameSchema.optional(),
  description: bookDescriptionSchema.optional(),
  categories: bookCategoriesSchema.optional(),
  cover: coverSchema.optional(),
  state: bookStateSchema.optional(),
});
export type UpdateBookInput = z.output<typeof updateBookSchema>;

export const chapterTitleSchema = z
  .string({ error: "books:validation.title_required" })
  .trim()
  .min(1, "books:validation.title_required")
  .max(chapterTitleMaxLength, "books:validation.title_length")
  .regex(singleLinePattern, "books:validation.title_chars");

/** 1-based place of a chapter in its book. */
export const chapterNumberSchema = z
  .number({ error: "books:validation.number_invalid" })
  .int("books:validation.number_invalid")
  .min(1, "books:validation.number_invalid")
  .max(100_000, "books:validation.number_invalid");

/** POST /api/books/{id}/chapters/ and the add-chapter form (appended as the last chapter). */
export const createChapterSchema = z.strictObject({
  title: chapterTitleSchema,
  content: markdownSchema("document"),
});
export type CreateChapterInput = z.output<typeof createChapterSchema>;

/** PATCH /api/books/{id}/chapters/{chapter_id}/: new texts and/or a new number (moves the chapter there). */
export const updateChapterSchema = z.strictObject({
  title: chapterTitleSchema.optional(),
  content: markdownSchema("document").optional(),
  number: chapterNumberSchema.optional(),
});
export type UpdateChapterInput = z.output<typeof updateChapterSchema>;

/** The circle's paged book list. */
export const bookListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

/** Form fields → the shapes above (browser and server alike). */
export function bookInputFromForm(form: FormData) {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const categories = form
    .getAll("categories")
    .filter((value): value is string => typeof value === "string" && /^\d{1,10}$/.test(value))
    .map(Number);
  return { name: text("name"), description: text("description") ?? "", categories };
}

/** The first message of each field of a failed parse: field → catalog key. */
export function fieldMessages(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    fields[field] ??= issue.message;
  }
  return fields;
}
