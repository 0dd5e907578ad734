import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { personal, requireSignedIn } from "../../server/lib/operation.ts";
import { reactionKinds } from "../../server/db/schema/reactions.ts";
import { reactionInputSchema } from "./schema.ts";
import { removeReaction, setReaction, type ReactionState } from "./service.ts";

const params = z.object({ type: z.string().min(1).max(32), id: idSchema });
const answer = z.object({
  reaction: z.enum(reactionKinds).nullable(),
  like_count: z.number().int(),
  dislike_count: z.number().int().optional(),
});

/** The API's answer: the dislike count only for the subject's author. */
export function presentReaction(state: ReactionState): z.infer<typeof answer> {
  const body: z.infer<typeof answer> = { reaction: state.reaction, like_count: state.likeCount };
  if (state.dislikeCount !== undefined) body.dislike_count = state.dislikeCount;
  return body;
}

/** Like and dislike on any kind of subject of the registry (`writing`, `book`, `chapter`, `comment`, `user`, `entry`…). */
export async function reactionsApi(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["interactions"];

  api.put(
    "/api/subjects/:type/:id/reaction/",
    {
      schema: {
        tags,
        summary: "Like or dislike a subject (they exclude each other); repeating it changes nothing",
        params,
        body: reactionInputSchema,
        response: { 200: answer },
      },
    },
    async (request, reply) => {
      const viewer = requireSignedIn(await request.viewer());
      const state = await setReaction({ db: app.db }, viewer, request.params.type, request.params.id, request.body.reaction);
      personal(reply);
      return presentReaction(state);
    },
  );

  api.delete(
    "/api/subjects/:type/:id/reaction/",
    {
      schema: {
        tags,
        summary: "Take back one's like or dislike",
        params,
        body: z.strictObject({}).nullish(),
        response: { 200: answer },
      },
    },
    async (request, reply) => {
      const viewer = requireSignedIn(await request.viewer());
      const state = await removeReaction({ db: app.db }, viewer, request.params.type, request.params.id);
      personal(reply);
      return presentReaction(state);
    },
  );
}
