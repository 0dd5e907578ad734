import type { SiteRole } from "../accounts/constants.ts";
import type { Viewer } from "../accounts/viewer.ts";

export type LinkAction = "suggest" | "review";

/** Anyone signed in suggests a friend link; site moderators and admins review them (and list theirs at once). */
export function can(actor: Viewer | null, action: LinkAction, role: SiteRole = "none"): boolean {
  if (!actor) return false;
  if (action === "suggest") return true;
  return role === "moderator" || role === "admin";
}
