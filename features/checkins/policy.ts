import type { Viewer } from "../accounts/viewer.ts";

export type CheckinAction =
  /** The daily check-in: any signed-in user, for themselves (visitors are asked to log in). */
  "check_in";

export function can(actor: Viewer | null, action: CheckinAction): boolean {
  if (!actor) return false;
  switch (action) {
    case "check_in":
      return true;
  }
}
