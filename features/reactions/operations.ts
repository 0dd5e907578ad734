import { z } from "zod";
import { defineOperation } from "../../server/lib/operation.ts";
import { reactionKinds } from "../../server/db/schema/reactions.ts";
import { subjectParamsSchema } from "../subjects/schema.ts";
import { reactionInputSchema } from "./schema.ts";
import { removeReaction, setReaction, type ReactionState } from "./service.ts";

export const reactionAnswerSchema = z.object({
  reaction: z.enum(reactionKinds).nullable(),
  like_count: z.number().int(),
  dislike_count: z.number().int().optional(),
});
export type ReactionAnswer = z.infer<typeof reactionAnswerSchema>;

/** The answer: the dislike count only for the subject's author. */
export function presentReaction(state: ReactionState): ReactionAnswer {
  const body: ReactionAnswer = { reaction: state.reaction, like_count: state.likeCount };
  if (state.dislikeCount !== undefined) body.dislike_count = state.dislikeCount;
  return body;
}

/** Like or dislike any subject of the registry (they exclude each other); repeating it changes nothing. */
export const setReactionOperation = defineOperation({
  name: "setReaction",
  input: { params: subjectParamsSchema, body: reactionInputSchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) => setReaction(services, viewer, params.type, params.id, body.reaction),
  present: presentReaction,
  response: reactionAnswerSchema,
  failures: ["not_found", "daily_limit_reached"],
});

/** Take back one's like or dislike. */
export const removeReactionOperation = defineOperation({
  name: "removeReaction",
  input: { params: subjectParamsSchema, body: z.strictObject({}).nullish() },
  viewer: "signed-in",
  run: (services, viewer, { params }) => removeReaction(services, viewer, params.type, params.id),
  present: presentReaction,
  response: reactionAnswerSchema,
  failures: ["not_found"],
});
