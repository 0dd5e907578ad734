import type { Viewer } from "../accounts/viewer.ts";
import { can as canInCircle, type CircleAccess } from "../circles/policy.ts";

export type EntryAction =
  /** Read the entry, find it in the picker, relate a writing to it: whoever may read the circle's content. */
  | "read"
  /** Start an entry in the circle: whoever the circles policy lets write there. */
  | "create";

/** Entries belong to their circle; editing and deleting come with the full encyclopedia. */
export function can(actor: Viewer | null, action: EntryAction, circle: CircleAccess): boolean {
  switch (action) {
    case "read":
      return canInCircle(actor, "read_content", circle);
    case "create":
      return canInCircle(actor, "write", circle);
  }
}
