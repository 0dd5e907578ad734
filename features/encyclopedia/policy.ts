import type { Viewer } from "../accounts/viewer.ts";
import { can as canInCircle, type CircleAccess } from "../circles/policy.ts";

export type EntryAction =
  /** Read the entry, find it in the picker, relate a writing to it: whoever may read the circle's content. */
  | "read"
  /** Start an entry in the circle: whoever the circles policy lets write there. */
  | "create"
  /** Edit the entry or revert it to an old revision: whoever may write in the circle; a protected entry only its moderators. */
  | "edit"
  /** Delete the entry for good: the circle's moderators (masters and above). */
  | "delete"
  /** Protect or unprotect the entry: the circle's moderators. */
  | "protect";

/** Entries belong to their circle: the encyclopedia is written by the circle's writers together. */
export function can(actor: Viewer | null, action: EntryAction, circle: CircleAccess, entry?: { protected: boolean }): boolean {
  switch (action) {
    case "read":
      return canInCircle(actor, "read_content", circle);
    case "create":
      return canInCircle(actor, "write", circle);
    case "edit":
      if (!canInCircle(actor, "write", circle) || !canInCircle(actor, "read_content", circle)) return false;
      return !entry?.protected || canInCircle(actor, "moderate", circle);
    case "delete":
    case "protect":
      return canInCircle(actor, "moderate", circle) && canInCircle(actor, "read_content", circle);
  }
}
