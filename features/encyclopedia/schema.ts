import { z } from "zod";
import { idSchema as idParamSchema, idValueSchema } from "../../common/id.ts";
import { markdownSchema } from "../content/schema.ts";
import { singleLinePattern } from "../../common/single-line.ts";

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
  /** The group's first version, for a later language version (its path is under the group's id). */
  translationOf?: number | null;
}

export const entryNameMaxLength = 100;
export const disambiguationMaxLength = 100;
export const maxAliases = 20;
/** The picker and the search API answer at most this many entries. */
export const maxSearchResults = 10;

const idSchema = idValueSchema();

const nameSchema = z
  .string({ error: "validation:entry_name_required" })
  .trim()
  .min(1, "validation:entry_name_required")
  .max(entryNameMaxLength, "validation:entry_name_length")
  .regex(singleLinePattern, "validation:invalid_characters");

const disambiguationSchema = z
  .string({ error: "validation:invalid_value" })
  .trim()
  .max(disambiguationMaxLength, "validation:entry_disambiguation_length")
  .regex(singleLinePattern, "validation:invalid_characters")
  .nullable();

export const summaryMaxLength = 200;
export const maxReferences = 100;
export const referenceLabelPattern = /^[\p{L}\p{N}_][\p{L}\p{N}_:.-]{0,39}$/u;

const optionalText = (max: number) =>
  z
    .string({ error: "validation:invalid_value" })
    .trim()
    .max(max, "validation:reference_field_length")
    .regex(singleLinePattern, "validation:invalid_characters")
    .optional()
    .transform((value) => (value ? value : undefined));

/** One reference: `[@label]` cites it (spec §3). */
export const referenceSchema = z.strictObject({
  label: z
    .string({ error: "validation:reference_label_invalid" })
    .trim()
    .regex(referenceLabelPattern, "validation:reference_label_invalid"),
  authors: z
    .array(
      z
        .string({ error: "validation:invalid_value" })
        .trim()
        .min(1, "validation:invalid_value")
        .max(200, "validation:reference_field_length"),
      {
        error: "validation:invalid_value",
      },
    )
    .max(50, "validation:invalid_value")
    .default([]),
  title: z
    .string({ error: "validation:reference_title_required" })
    .trim()
    .min(1, "validation:reference_title_required")
    .max(500, "validation:reference_field_length")
    .regex(singleLinePattern, "validation:invalid_characters"),
  container: optionalText(500),
  publisher: optionalText(200),
  year: optionalText(20),
  pages: optionalText(50),
  url: optionalText(2000).refine((value) => value === undefined || /^https?:\/\/\S+$/i.test(value), "validation:reference_url_invalid"),
  accessed: optionalText(20),
  doi: optionalText(200),
});
export type EntryReference = z.infer<typeof referenceSchema>;

export const citationFormats = ["numeric", "label", "none"] as const;
export const citationBrackets = ["square", "round"] as const;
export const citationTypes = ["single", "multiple"] as const;
export const citationPositions = ["superscript", "subscript"] as const;

/** How the entry shows its citations (spec §3). */
export const citationSchema = z.strictObject({
  format: z.enum(citationFormats, { error: "validation:invalid_value" }).default("numeric"),
  bracket: z.enum(citationBrackets, { error: "validation:invalid_value" }).default("square"),
  cite_type: z.enum(citationTypes, { error: "validation:invalid_value" }).default("multiple"),
  position: z.enum(citationPositions, { error: "validation:invalid_value" }).default("superscript"),
});
export type CitationSettings = z.infer<typeof citationSchema>;

const referencesSchema = z
  .array(referenceSchema, { error: "validation:invalid_value" })
  .max(maxReferences, "validation:references_too_many")
  .superRefine((references, context) => {
    const seen = new Set<string>();
    for (const reference of references) {
      const key = reference.label.toLowerCase();
      if (seen.has(key)) context.addIssue({ code: "custom", message: "validation:reference_label_duplicate" });
      seen.add(key);
    }
  });

const editSummarySchema = z
  .string({ error: "validation:invalid_value" })
  .trim()
  .max(summaryMaxLength, "validation:edit_summary_length")
  .regex(singleLinePattern, "validation:invalid_characters");

export const maxPhotos = 20;
export const photoCaptionMaxLength = 200;

/** An entry's photo: an uploaded image (`POST /api/uploads/`) and its caption. */
export const photoSchema = z.strictObject({
  file_id: z.string({ error: "validation:entry_photo_unknown" }).regex(/^[A-Za-z0-9_-]{24}$/, "validation:entry_photo_unknown"),
  caption: z
    .string({ error: "validation:invalid_value" })
    .trim()
    .max(photoCaptionMaxLength, "validation:entry_photo_caption_length")
    .regex(singleLinePattern, "validation:invalid_characters")
    .default(""),
});
export const photosSchema = z.array(photoSchema, { error: "validation:invalid_value" }).max(maxPhotos, "validation:entry_photos_too_many");

/** A new entry: `POST /api/circles/{cid}/encyclopedia/entries/`, the write page, the seed. */
export const createEntrySchema = z.strictObject({
  name: nameSchema,
  aliases: z.array(nameSchema, { error: "validation:invalid_value" }).max(maxAliases, "validation:aliases_too_many").default([]),
  disambiguation: disambiguationSchema.default(null),
  parent_id: idSchema.nullable().default(null),
  content: markdownSchema("document"),
  language: z.enum(entryLanguageValues, { error: "validation:language_invalid" }).default("zh-CN"),
  summary: editSummarySchema.default(""),
  references: referencesSchema.default([]),
  citation: citationSchema.default({ format: "numeric", bracket: "square", cite_type: "multiple", position: "superscript" }),
  photos: photosSchema.default([]),
});
export type CreateEntryInput = z.infer<typeof createEntrySchema>;

/** GET /api/encyclopedia/entries/?q=&circle=&limit= */
export const searchEntriesQuery = z.object({
  q: z.string().max(100).default(""),
  circle: idParamSchema.optional(),
  limit: z.coerce.number().int().min(1).max(maxSearchResults).default(maxSearchResults),
});

/** `PATCH /api/encyclopedia/entries/{id}/`: the revision the edit started from and the fields changed. */
export const updateEntrySchema = z.strictObject({
  base_revision: idSchema,
  name: nameSchema.optional(),
  aliases: z.array(nameSchema, { error: "validation:invalid_value" }).max(maxAliases, "validation:aliases_too_many").optional(),
  disambiguation: disambiguationSchema.optional(),
  parent_id: idSchema.nullable().optional(),
  content: markdownSchema("document").optional(),
  summary: editSummarySchema.default(""),
  references: referencesSchema.optional(),
  citation: citationSchema.optional(),
  photos: photosSchema.optional(),
});
export type UpdateEntryInput = z.infer<typeof updateEntrySchema>;

/** `POST /api/encyclopedia/entries/{id}/versions/`: the entry's version in another language. */
export const createVersionSchema = z.strictObject({
  language: z.enum(entryLanguageValues, { error: "validation:language_invalid" }),
  name: nameSchema,
  aliases: z.array(nameSchema, { error: "validation:invalid_value" }).max(maxAliases, "validation:aliases_too_many").default([]),
  disambiguation: disambiguationSchema.default(null),
  content: markdownSchema("document"),
  summary: editSummarySchema.default(""),
  references: referencesSchema.default([]),
  citation: citationSchema.default({ format: "numeric", bracket: "square", cite_type: "multiple", position: "superscript" }),
  photos: photosSchema.default([]),
});
export type CreateVersionInput = z.infer<typeof createVersionSchema>;

/** `?language=`: an entry's version in that language (the entry of the id itself without it). */
export const versionQuery = z.object({ language: z.enum(entryLanguageValues, { error: "validation:language_invalid" }).optional() });

/** `POST …/revisions/{rev}/revert/` */
export const revertSchema = z.strictObject({ summary: editSummarySchema.default("") });

/** `POST …/protection/` */
export const protectionSchema = z.strictObject({ protected: z.boolean({ error: "validation:invalid_value" }) });

/**
 * The photos with the one of `fileId` moved one place up (`-1`) or down (`1`); the first is the
 * infobox photo. Unchanged when it is not there or already at that end. The editor's move buttons
 * (a form post without JavaScript, at once with it).
 */
export function movePhoto<Photo extends { file_id: string }>(photos: readonly Photo[], fileId: string, step: -1 | 1): Photo[] {
  const moved = [...photos];
  const from = moved.findIndex((photo) => photo.file_id === fileId);
  const to = from + step;
  if (from < 0 || to < 0 || to >= moved.length) return moved;
  [moved[from], moved[to]] = [moved[to]!, moved[from]!];
  return moved;
}
