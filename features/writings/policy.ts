import type { Viewer } from "../accounts/viewer.ts";
import { can as canInCircle, type CircleAccess } from "../circles/policy.ts";

export type WritingAction =
  /** Read it (and see that it exists: otherwise 404). */
  | "read"
  /** Change its text and fields. */
  | "edit"
  /** Delete it for good. */
  | "delete"
  /** Add a version in another language, or the next part of a serialized article. */
  | "extend";

export interface WritingResource {
  writing: { authorId: number };
  /** The viewer's access to the writing's circle. */
  access: CircleAccess;
}

/**
 * Who may do what with a writing. Reading follows the circle's content visibility. The author
 * edits and extends their writing while they may still read the circle; deleting is also open to
 * the circle's moderators (masters and above: `moderate` in the circles policy).
 */
export function can(actor: Viewer | null, action: WritingAction, resource: WritingResource): boolean {
  const readable = canInCircle(actor, "read_content", resource.access);
  if (action === "read") return readable;
  if (!actor || !readable) return false;
  const author = resource.writing.authorId === actor.id;
  switch (action) {
    case "edit":
    case "extend":
      return author;
    case "delete":
      return author || canInCircle(actor, "moderate", resource.access);
  }
}

/** Publishing a new writing in a circle: the circles policy's `write`. */
export function canWriteIn(actor: Viewer | null, access: CircleAccess): boolean {
  return canInCircle(actor, "write", access);
}

export function writingPermissions(actor: Viewer | null, resource: WritingResource): { edit: boolean; delete: boolean; extend: boolean } {
  return { edit: can(actor, "edit", resource), delete: can(actor, "delete", resource), extend: can(actor, "extend", resource) };
}
