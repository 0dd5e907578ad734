import { z } from "zod";
import { idValueSchema } from "../../common/id.ts";
import { markdownSchema } from "../content/schema.ts";
import { singleLinePattern } from "../../common/single-line.ts";

/**
 * Shared by the editor in the browser and by the API and page actions on the server. Messages are
 * keys of the `validation` catalog.
 */
export const writingTypeValues = ["article", "serial", "post"] as const;
export const writingKindValues = [
  "ordinary",
  "popular_science",
  "professional",
  "academic",
  "introduction",
  "paper",
  "note",
  "survey",
  "custom",
] as const;
export const writingLanguageValues = ["zh-CN", "en"] as const;
export type WritingType = (typeof writingTypeValues)[number];
export type WritingKind = (typeof writingKindValues)[number];
export type WritingLanguage = (typeof writingLanguageValues)[number];

export const titleMaxLength = 100;
export const kindNameMaxLength = 20;
/** The author's summary: a sentence or two for lists and search results. */
export const summaryMaxLength = 200;
export const maxRelatedEntries = 5;
export const maxCategories = 10;

const idSchema = idValueSchema();

export const titleSchema = z
  .string({ error: "validation:title_required" })
  .trim()
  .min(1, "validation:title_required")
  .max(titleMaxLength, "validation:title_length")
  .regex(singleLinePattern, "validation:invalid_characters");

const sourceUrlSchema = z
  .string({ error: "validation:source_url_invalid" })
  .trim()
  .max(500, "validation:source_url_invalid")
  .refine((value) => {
    if (value === "") return true;
    try {
      const url = new URL(value);
      return url.protocol === "http:" || url.protocol === "https:";
    } catch {
      return false;
    }
  }, "validation:source_url_invalid");

const moneySchema = z
  .number({ error: "validation:invalid_value" })
  .int("validation:invalid_value")
  .min(0, "validation:invalid_value")
  .max(1_000_000, "validation:invalid_value");

/** Line breaks and runs of spaces in a summary become one space (it shows as one paragraph); other control characters are refused. */
export const summarySchema = z
  .string({ error: "validation:invalid_value" })
  .transform((text) => text.replace(/[\r\n\t\u2028\u2029 ]+/g, " ").trim())
  .pipe(z.string().max(summaryMaxLength, "validation:summary_length").regex(singleLinePattern, "validation:invalid_characters"));

/** Everything but the type, language and the links to other writings: what an edit may change. */
const editableFields = {
  title: titleSchema,
  content: markdownSchema("document"),
  summary: summarySchema,
  kind: z.enum(writingKindValues, { error: "validation:kind_invalid" }),
  kind_name: z
    .string({ error: "validation:invalid_value" })
    .trim()
    .max(kindNameMaxLength, "validation:kind_name_length")
    .regex(singleLinePattern, "validation:invalid_characters"),
  categories: z.array(idSchema, { error: "validation:invalid_value" }).max(maxCategories, "validation:categories_too_many"),
  // Duplicates collapse (the service keeps each id once), so only distinct ids count towards five.
  related_entries: z
    .array(idSchema, { error: "validation:invalid_value" })
    .max(maxRelatedEntries * 4, "validation:related_entries_max")
    .refine((ids) => new Set(ids).size <= maxRelatedEntries, "validation:related_entries_max"),
  cover_file_id: z
    .string({ error: "validation:invalid_value" })
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "validation:invalid_value")
    .nullable(),
  is_repost: z.boolean({ error: "validation:invalid_value" }),
  source_url: sourceUrlSchema,
  disable_copy: z.boolean({ error: "validation:invalid_value" }),
  disable_context_menu: z.boolean({ error: "validation:invalid_value" }),
  tip_enabled: z.boolean({ error: "validation:invalid_value" }),
  pay_to_view_price: moneySchema,
  /** Pay-to-view: the price of the part after the `<!-- paywall -->` line; null for a free writing (the same as `pay_to_view_price`). */
  pay_to_view: z.strictObject({ price: moneySchema }, { error: "validation:invalid_value" }).nullable(),
  red_packet_amount: moneySchema,
};

const customKindNamed = { path: ["kind_name"], message: "validation:kind_name_required" };
const repostHasSource = { path: ["source_url"], message: "validation:source_url_required" };

/** POST /api/circles/{cid}/writings/ and the editor's publish. */
export const createWritingSchema = z
  .strictObject({
    title: editableFields.title,
    content: editableFields.content,
    summary: editableFields.summary.default(""),
    kind: editableFields.kind.default("ordinary"),
    kind_name: editableFields.kind_name.default(""),
    categories: editableFields.categories.default([]),
    related_entries: editableFields.related_entries.default([]),
    cover_file_id: editableFields.cover_file_id.default(null),
    is_repost: editableFields.is_repost.default(false),
    source_url: editableFields.source_url.default(""),
    disable_copy: editableFields.disable_copy.default(false),
    disable_context_menu: editableFields.disable_context_menu.default(false),
    tip_enabled: editableFields.tip_enabled.default(false),
    pay_to_view_price: editableFields.pay_to_view_price.default(0),
    pay_to_view: editableFields.pay_to_view.optional(),
    red_packet_amount: editableFields.red_packet_amount.default(0),
    type: z.enum(writingTypeValues, { error: "validation:type_invalid" }).default("article"),
    language: z.enum(writingLanguageValues, { error: "validation:language_invalid" }).default("zh-CN"),
    /** Another language version of this writing (the author's own). */
    translation_of: idSchema.nullable().default(null),
    /** A further part of this serialized article (any part's id). */
    series_id: idSchema.nullable().default(null),
  })
  .refine((value) => value.kind !== "custom" || value.kind_name.length > 0, customKindNamed)
  .refine((value) => !value.is_repost || value.source_url.length > 0, repostHasSource);
export type CreateWritingInput = z.infer<typeof createWritingSchema>;

/** PATCH /api/writings/{id}/: every field optional but `version`, the version the edit was based on. */
export const updateWritingSchema = z
  .strictObject(editableFields)
  .partial()
  .extend({ version: idSchema })
  .refine((value) => value.kind !== "custom" || (value.kind_name ?? "").length > 0, customKindNamed)
  .refine((value) => !value.is_repost || (value.source_url ?? "").length > 0, repostHasSource);
export type UpdateWritingInput = z.infer<typeof updateWritingSchema>;

export const draftKeySchema = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "validation:invalid_value");

/**
 * A draft's other fields are the editor's few settings (type, kind, categories, cover…): flat
 * values, a list at most. Bounded so a draft cannot become a store of arbitrary JSON.
 */
export const draftFieldsLimits = { maxBytes: 16 * 1024, maxDepth: 4 };

function checkDraftFields(fields: Record<string, unknown>, context: z.RefinementCtx): void {
  // Depth first: measuring the size of a 5,000-deep value would itself overflow the stack.
  if (nestedDeeperThan(fields, draftFieldsLimits.maxDepth)) {
    context.addIssue({ code: "custom", message: "validation:draft_fields_too_deep" });
    return;
  }
  if (new TextEncoder().encode(JSON.stringify(fields)).length > draftFieldsLimits.maxBytes) {
    context.addIssue({ code: "custom", message: "validation:draft_fields_too_large" });
  }
}

/** Whether objects and arrays nest more than `limit` levels (the value itself is level 1); stops looking below it. */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== "object") return false;
  if (limit === 0) return true;
  return Object.values(value).some((child) => nestedDeeperThan(child, limit - 1));
}

/** PUT /api/drafts/{key}/: `version` is the draft version the client last saw (0 for a new one). */
export const saveDraftSchema = z.strictObject({
  title: z
    .string({ error: "validation:invalid_value" })
    .max(titleMaxLength * 2, "validation:title_length")
    .default(""),
  body: z
    .string({ error: "validation:invalid_value" })
    .refine((text) => new TextEncoder().encode(text).length <= 200 * 1024, "validation:content_too_long_document")
    .default(""),
  fields: z.record(z.string(), z.unknown()).superRefine(checkDraftFields).default({}),
  version: z.number({ error: "validation:invalid_value" }).int().min(0).max(2_147_483_647),
  /** Overwrite whatever is stored (the user chose their version after a conflict). */
  force: z.boolean().default(false),
});
export type SaveDraftInput = z.infer<typeof saveDraftSchema>;

export const previewSchema = z.strictObject({
  content: z
    .string({ error: "validation:invalid_value" })
    .refine((text) => new TextEncoder().encode(text).length <= 200 * 1024, "validation:content_too_long_document"),
});

/** Home and circle lists. */
export const feedTabValues = ["latest", "hot", "all", "follow"] as const;
export type FeedTab = (typeof feedTabValues)[number];
