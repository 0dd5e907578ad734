import type { SiteRole } from "../accounts/constants.ts";
import type { Viewer } from "../accounts/viewer.ts";

export type FeedbackAction = "send" | "manage";

/**
 * Anyone signed in sends feedback and reads their own; only site admins read everyone's and set
 * its status (feedback may name accounts and payments, so moderators do not see it).
 */
export function can(actor: Viewer | null, action: FeedbackAction, role: SiteRole = "none"): boolean {
  if (!actor) return false;
  if (action === "send") return true;
  return role === "admin";
}
