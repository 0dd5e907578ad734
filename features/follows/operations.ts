import { z } from "zod";
import { defineOperation } from "../../server/lib/operation.ts";
import { followUser, unfollowUser, type FollowState } from "./service.ts";

/* Follow and unfollow: the API (features/follows/api.ts) and the profile page's toggle (app/routes/profile.tsx). */

const input = { params: z.object({ username: z.string().min(1).max(64) }), body: z.strictObject({}).nullish() };

export const followStateSchema = z.strictObject({ following: z.boolean(), followers_count: z.number(), following_count: z.number() });
export type PresentedFollowState = z.infer<typeof followStateSchema>;

function presentFollowState(state: FollowState): PresentedFollowState {
  return { following: state.following, followers_count: state.followersCount, following_count: state.followingCount };
}

/** Follow a user (repeating it changes nothing); the spec's "Failed to follow" for anything unexpected. */
export const followOperation = defineOperation({
  name: "followUser",
  input,
  // Visitors are asked to log in; following oneself has its own message (cannot_follow_self) from the service.
  viewer: "signed-in",
  run: (services, viewer, { params }) => followUser({ db: services.db }, viewer.id, params.username),
  present: presentFollowState,
  response: followStateSchema,
  failures: ["no_follow_target", "cannot_follow_self", "daily_limit_reached"],
  unexpected: "follow_failed",
});

/** Unfollow a user (a no-op when not following). */
export const unfollowOperation = defineOperation({
  name: "unfollowUser",
  input,
  viewer: "signed-in",
  run: (services, viewer, { params }) => unfollowUser({ db: services.db }, viewer.id, params.username),
  present: presentFollowState,
  response: followStateSchema,
  failures: ["no_follow_target", "cannot_unfollow_self"],
  unexpected: "unfollow_failed",
});
