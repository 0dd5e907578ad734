import type { Viewer } from "../accounts/viewer.ts";

export type FollowAction =
  /** Follow or unfollow a user: signed-in users, never themselves. */
  "follow";

export function can(actor: Viewer | null, action: FollowAction, target: { userId: number }): boolean {
  if (!actor) return false;
  switch (action) {
    case "follow":
      return actor.id !== target.userId;
  }
}
