import { z } from "zod";
import { commentMaxLength, characterCount } from "./constants.ts";

export * from "./constants.ts";

/*
 * Shared by the API and the page action. Messages are keys of the `validation` catalog: the server
 * translates them (the page action answers translated messages), so reading pages never load them.
 */

/** Control characters other than line breaks and tabs are refused (NUL is refused before validation anyway). */
function hasControlCharacters(text: string): boolean {
  for (const character of text) {
    const code = character.codePointAt(0)!;
    if ((code < 0x20 && character !== "\n" && character !== "\t") || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

export const commentBodySchema = z
  .string({ error: "validation:comment_required" })
  .transform((value) => value.replace(/\r\n?/g, "\n").trim())
  .pipe(
    z
      .string()
      .min(1, "validation:comment_required")
      .refine((value) => characterCount(value) <= commentMaxLength, "validation:comment_too_long")
      .refine((value) => !hasControlCharacters(value), "validation:comment_invalid_characters"),
  );

const idSchema = z
  .number({ error: "validation:comment_parent_invalid" })
  .int("validation:comment_parent_invalid")
  .positive("validation:comment_parent_invalid")
  .max(2_147_483_647, "validation:comment_parent_invalid");

export const createCommentSchema = z.object({
  body: commentBodySchema,
  /** The comment or reply this answers; null or absent for a top-level comment. */
  parent_id: idSchema.nullable().optional(),
});
export type CreateCommentInput = z.infer<typeof createCommentSchema>;

/** Cursors are comment ids (the last one of the previous page). */
export const commentCursorSchema = z.coerce.number().int().positive().max(2_147_483_647).optional().catch(undefined);
