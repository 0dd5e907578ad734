import { z } from "zod";
import { idSchema as idParamSchema, idValueSchema } from "../../common/id.ts";
import { markdownSchema } from "../content/schema.ts";

/**
 * Shared by the API, the seed and (later) the entry editor. Messages are keys of the `validation`
 * catalog.
 */
export const entryLanguageValues = ["zh-CN", "en"] as const;
export type EntryLanguage = (typeof entryLanguageValues)[number];

/** What lists, the picker and related-entry links need of an entry. */
export interface EntrySummary {
  id: number;
  circleId: number;
  name: string;
  aliases: string[];
  disambiguation: string | null;
  language: EntryLanguage;
}

export const entryNameMaxLength = 100;
export const disambiguationMaxLength = 100;
export const maxAliases = 20;
/** The picker and the search API answer at most this many entries. */
export const maxSearchResults = 10;

const noControlCharacters = /^[^\p{Cc}]*$/u;
const idSchema = idValueSchema();

const nameSchema = z
  .string({ error: "validation:entry_name_required" })
  .trim()
  .min(1, "validation:entry_name_required")
  .max(entryNameMaxLength, "validation:entry_name_length")
  .regex(noControlCharacters, "validation:invalid_characters");

/** A new entry (the seed and the tests today; the entry editor later). */
export const createEntrySchema = z.strictObject({
  name: nameSchema,
  aliases: z.array(nameSchema, { error: "validation:invalid_value" }).max(maxAliases, "validation:invalid_value").default([]),
  disambiguation: z
    .string({ error: "validation:invalid_value" })
    .trim()
    .max(disambiguationMaxLength, "validation:entry_disambiguation_length")
    .regex(noControlCharacters, "validation:invalid_characters")
    .nullable()
    .default(null),
  parent_id: idSchema.nullable().default(null),
  description: markdownSchema("document"),
  language: z.enum(entryLanguageValues, { error: "validation:language_invalid" }).default("zh-CN"),
});
export type CreateEntryInput = z.infer<typeof createEntrySchema>;

/** GET /api/encyclopedia/entries/?q=&circle=&limit= */
export const searchEntriesQuery = z.object({
  q: z.string().max(100).default(""),
  circle: idParamSchema.optional(),
  limit: z.coerce.number().int().min(1).max(maxSearchResults).default(maxSearchResults),
});
