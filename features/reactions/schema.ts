import { z } from "zod";
import { reactionKinds } from "../../server/db/schema/reactions.ts";

/** `PUT /api/subjects/{type}/{id}/reaction/` and the action bar's form. */
export const reactionInputSchema = z.object({ reaction: z.enum(reactionKinds) }).strict();
export type ReactionInput = z.infer<typeof reactionInputSchema>;
