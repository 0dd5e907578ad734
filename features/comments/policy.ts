import type { Viewer } from "../accounts/viewer.ts";
import { can as canInCircle, type CircleAccess } from "../circles/policy.ts";
import { commentEditWindowSeconds } from "./constants.ts";

export type CommentAction =
  /** See the subject's comments: whoever may read the subject. */
  | "read"
  /** Write a top-level comment. */
  | "post"
  /** Reply to this comment (not to a deleted one). */
  | "reply"
  /** Delete this comment or reply for good. */
  | "delete"
  /** Change its text: its author, within `commentEditWindowSeconds` of posting. */
  | "edit";

export interface CommentSubjectRules {
  /** The author of the thing commented on (a writing's author); null when nobody owns it. */
  authorId: number | null;
  /** The viewer's access to the subject's circle; null for subjects outside circles (users). */
  access: CircleAccess | null;
}

export interface CommentResource {
  subject: CommentSubjectRules;
  /** The comment acted on (reply, delete, edit). */
  comment?: { authorId: number; deleted: boolean; createdAt?: Date };
  /** The clock of the edit window (services' `now()`). */
  now?: Date;
}

/** Whether the edit window of a comment posted at `createdAt` is still open at `now`. */
export function withinEditWindow(createdAt: Date, now: Date): boolean {
  return now.getTime() - createdAt.getTime() < commentEditWindowSeconds * 1000;
}

/**
 * Who may do what with comments. Reading follows the subject (a writing: the circle's
 * `read_content`); anyone signed in who may read it comments and replies; a comment is deleted by
 * its author, the subject's author or the circle's moderators (`moderate`: masters and above),
 * and edited by its author within ten minutes of posting.
 */
export function can(actor: Viewer | null, action: CommentAction, resource: CommentResource): boolean {
  // The subject was loaded for this viewer (unreadable ones are not found); in a circle, its rules apply.
  const access = resource.subject.access;
  const readable = access === null || canInCircle(actor, "read_content", access);
  if (action === "read") return readable;
  if (!actor || !readable) return false;
  switch (action) {
    case "post":
      return true;
    case "reply":
      return resource.comment !== undefined && !resource.comment.deleted;
    case "delete":
      if (!resource.comment || resource.comment.deleted) return false;
      return (
        resource.comment.authorId === actor.id ||
        resource.subject.authorId === actor.id ||
        (access !== null && canInCircle(actor, "moderate", access))
      );
    case "edit":
      if (!resource.comment || resource.comment.deleted || resource.comment.authorId !== actor.id) return false;
      return resource.comment.createdAt !== undefined && withinEditWindow(resource.comment.createdAt, resource.now ?? new Date());
  }
}

export function commentPermissions(actor: Viewer | null, resource: CommentResource): { delete: boolean; reply: boolean; edit: boolean } {
  return { delete: can(actor, "delete", resource), reply: can(actor, "reply", resource), edit: can(actor, "edit", resource) };
}
