import { z } from "zod";
import { idValueSchema } from "../../common/id.ts";
import { markdownLimits, markdownSchema, utf8ByteLength } from "../content/schema.ts";
import { maxCategories, maxRelatedEntries, titleSchema } from "../writings/schema.ts";

/**
 * Questions and answers: input schemas shared by the ask page, the answer box and the API.
 * Messages are keys of the `validation` catalog.
 */
import { questionLanguageValues } from "./constants.ts";

export { answerSortValues, questionLanguageValues, questionTabValues } from "./constants.ts";
export type { AnswerSort, QuestionLanguage, QuestionTab } from "./constants.ts";

const idSchema = idValueSchema();

/** The description may be empty (the title can be the whole question); never larger than a document. */
const descriptionSchema = z
  .string({ error: "validation:invalid_value" })
  .refine((text) => utf8ByteLength(text) <= markdownLimits.document, "validation:content_too_long_document");

const questionFields = {
  title: titleSchema,
  content: descriptionSchema,
  categories: z.array(idSchema, { error: "validation:invalid_value" }).max(maxCategories, "validation:categories_too_many"),
  related_entries: z
    .array(idSchema, { error: "validation:invalid_value" })
    .max(maxRelatedEntries * 4, "validation:related_entries_max")
    .refine((ids) => new Set(ids).size <= maxRelatedEntries, "validation:related_entries_max"),
  language: z.enum(questionLanguageValues, { error: "validation:language_invalid" }),
};

/** POST /api/circles/{cid}/questions/ and the ask page. */
export const askQuestionSchema = z.strictObject({
  title: questionFields.title,
  content: questionFields.content.default(""),
  categories: questionFields.categories.default([]),
  related_entries: questionFields.related_entries.default([]),
  language: questionFields.language.default("zh-CN"),
});
export type AskQuestionInput = z.infer<typeof askQuestionSchema>;

/** PATCH /api/questions/{id}/: every field optional but `version`, the version the edit was based on. */
export const updateQuestionSchema = z
  .strictObject(questionFields)
  .partial()
  .extend({ version: z.number({ error: "validation:invalid_value" }).int().positive().max(2_147_483_647) });
export type UpdateQuestionInput = z.infer<typeof updateQuestionSchema>;

/** POST /api/questions/{id}/answers/ and the answer box. */
export const answerSchema = z.strictObject({ content: markdownSchema("document") });
export type AnswerInput = z.infer<typeof answerSchema>;

/** PATCH /api/answers/{id}/. */
export const updateAnswerSchema = z.strictObject({
  content: markdownSchema("document"),
  version: z.number({ error: "validation:invalid_value" }).int().positive().max(2_147_483_647),
});
export type UpdateAnswerInput = z.infer<typeof updateAnswerSchema>;

/** PUT /api/questions/{id}/accepted_answer/. */
export const acceptAnswerSchema = z.strictObject({ answer_id: idSchema });

/** The similar-questions query: the words typed so far. */
export const similarQuerySchema = z.object({
  q: z.string().max(200).default(""),
  circle_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});

export const cursorSchema = z
  .string()
  .max(60)
  .regex(/^[a-z0-9_.-]*$/i)
  .optional();
