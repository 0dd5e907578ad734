import { z } from "zod";
import { commentMaxLength, characterCount } from "./constants.ts";

export * from "./constants.ts";

/*
 * Shared by the API and the page action. Messages are keys of the `comments` catalog (registered
 * with the core catalogs, so the server and reading pages have it).
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
  .string({ error: "comments:validation.required" })
  .transform((value) => value.replace(/\r\n?/g, "\n").trim())
  .pipe(
    z
      .string()
      .min(1, "comments:validation.required")
      .refine((value) => characterCount(value) <= commentMaxLength, "comments:validation.too_long")
      .refine((value) => !hasControlCharacters(value), "comments:validation.invalid_characters"),
  );

const idSchema = z.number({ error: "comments:validation.parent_invalid" }).int("comments:validation.parent_invalid").positive("comments:validation.parent_invalid").max(2_147_483_647, "comments:validation.parent_invalid");

export const createCommentSchema = z.object({
  body: commentBodySchema,
  /** The comment or reply this answers; null or absent for a top-level comment. */
  parent_id: idSchema.nullable().optional(),
});
export type CreateCommentInput = z.infer<typeof createCommentSchema>;

/** Cursors are comment ids (the last one of the previous page). */
export const commentCursorSchema = z.coerce.number().int().positive().max(2_147_483_647).optional().catch(undefined);

