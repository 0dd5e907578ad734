import { z } from "zod";
import { idSchema, idValueSchema } from "../../common/id.ts";
import { commentMaxLength, characterCount, commentSorts } from "./constants.ts";

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

export const createCommentSchema = z.object({
  body: commentBodySchema,
  /** The comment or reply this answers; null or absent for a top-level comment. */
  parent_id: idValueSchema("validation:comment_parent_invalid").nullable().optional(),
});
export type CreateCommentInput = z.infer<typeof createCommentSchema>;

/** An edit replaces the text (a reply keeps its thread and replied user). */
export const editCommentSchema = z.object({ body: commentBodySchema });
export type EditCommentInput = z.infer<typeof editCommentSchema>;

/** Cursors are comment ids (the last one of the previous page). */
export const commentCursorSchema = idSchema.optional().catch(undefined);

/** The order of a list of comments; anything else is the default (newest first). */
export const commentSortSchema = z.enum(commentSorts).optional().catch(undefined);

/** `GET /api/Users/mentions/?q=`: the start of a username or nickname, as typed after `@`. */
export const mentionQuerySchema = z.object({ q: z.string().trim().max(32).catch("") });

/* The answers' schemas (OpenAPI and the response serializer); the types live in constants.ts for the browser. */
const commentAuthorSchema = z.strictObject({ id: z.number(), username: z.string(), nickname: z.string(), avatar: z.string().nullable() });
const namedUserSchema = z.strictObject({ username: z.string(), nickname: z.string() });
export const presentedCommentSchema = z.strictObject({
  id: z.number(),
  body: z.string(),
  author: commentAuthorSchema.nullable(),
  created_at: z.string(),
  edited_at: z.string().nullable(),
  deleted: z.boolean(),
  reply_to: namedUserSchema.nullable(),
  mentions: z.array(namedUserSchema),
  like_count: z.number(),
  dislike_count: z.number().optional(),
  reaction: z.enum(["like", "dislike"]).nullable(),
  can: z.strictObject({ delete: z.boolean(), reply: z.boolean(), edit: z.boolean() }),
});
export const presentedThreadSchema = presentedCommentSchema.extend({
  replies: z.array(presentedCommentSchema),
  reply_count: z.number(),
});
export const commentPageSchema = z.strictObject({
  items: z.array(presentedThreadSchema),
  next_cursor: z.number().nullable(),
  total: z.number(),
});
export const replyPageSchema = z.strictObject({
  items: z.array(presentedCommentSchema),
  next_cursor: z.number().nullable(),
  total: z.number(),
});

export const mentionCandidatesSchema = z.strictObject({
  items: z.array(commentAuthorSchema),
});
export type MentionCandidates = z.infer<typeof mentionCandidatesSchema>;

/** A comment on the content of one user, for their creator's desk (`listCommentsOnContentOf`). */
export const contentCommentSchema = presentedCommentSchema.extend({
  subject: z.strictObject({ type: z.string(), id: z.number(), title: z.string(), path: z.string() }).nullable(),
  parent_id: z.number().nullable(),
});
