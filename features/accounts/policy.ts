import type { Viewer } from "./viewer.ts";

export type AccountAction =
  /** The personal centre and the message centre (/account/*, /messages/*). */
  | "enter_personal_area"
  /** Monetization home: any user type but "Registered users" (spec section 2). */
  | "enter_monetization_home"
  /** Read or change a user's private data (profile form, unread counters). */
  | "manage_account";

export function can(actor: Viewer | null, action: AccountAction, resource?: { userId: number }): boolean {
  if (!actor) return false;
  switch (action) {
    case "enter_personal_area":
      return true;
    case "enter_monetization_home":
      return actor.userType !== "Registered users";
    case "manage_account":
      return resource !== undefined && resource.userId === actor.id;
  }
}
