import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError, type ErrorCode } from "../../common/app-error.ts";
import { authorize } from "../../common/policy.ts";
import { followUser, unfollowUser, type FollowState } from "./service.ts";

const params = z.object({ username: z.string().min(1).max(64) });

export async function followsApi(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  /** Follow a user: 200 `{ following: true, followers_count, following_count }` (repeating it changes nothing). */
  api.post("/api/Users/follow/:username/", { schema: { params, body: z.strictObject({}).nullish() } }, async (request, reply) => {
    const viewer = await request.viewer();
    // Visitors are asked to log in; following oneself has its own message (cannot_follow_self) from the service.
    authorize(viewer, viewer !== null);
    const state = await failAs("follow_failed", request, () => followUser({ db: app.db }, viewer!.id, request.params.username));
    reply.header("cache-control", "no-store");
    return present(state);
  });

  api.delete("/api/Users/follow/:username/", { schema: { params, body: z.strictObject({}).nullish() } }, async (request, reply) => {
    const viewer = await request.viewer();
    authorize(viewer, viewer !== null);
    const state = await failAs("unfollow_failed", request, () => unfollowUser({ db: app.db }, viewer!.id, request.params.username));
    reply.header("cache-control", "no-store");
    return present(state);
  });
}

function present(state: FollowState) {
  return { following: state.following, followers_count: state.followersCount, following_count: state.followingCount };
}

/** The spec's "Failed to follow" / "Failed to unfollow" for anything unexpected (the cause goes to the log). */
async function failAs<T>(code: ErrorCode, request: FastifyRequest, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw error;
    request.log.error({ err: error }, code);
    throw new AppError(code);
  }
}
