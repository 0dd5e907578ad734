import type { Viewer } from "../accounts/viewer.ts";
import { can as canInCircle, type CircleAccess } from "../circles/policy.ts";

export type BookAction =
  /** Read the book and its chapters: whoever may read the circle's content. */
  | "read"
  /** Name, description, cover, categories, state; add, edit, reorder and delete chapters. */
  | "edit"
  | "delete";

/** What the policy needs to know about one book: its author and the viewer's access to its circle. */
export interface BookResource {
  authorId: number;
  circle: CircleAccess;
}

/**
 * Who may start a book in a circle: whoever the circles policy lets write there (a member who may
 * read its content; in a public circle anyone signed in, like every other kind of writing).
 */
export function canCreateBook(actor: Viewer | null, circle: CircleAccess): boolean {
  return canInCircle(actor, "write", circle);
}

/**
 * Books belong to their author; the circle's moderators (masters and above) may edit and delete
 * them too. Nobody acts on a book in a circle whose content they may not read.
 */
export function can(actor: Viewer | null, action: BookAction, book: BookResource): boolean {
  const readable = canInCircle(actor, "read_content", book.circle);
  switch (action) {
    case "read":
      return readable;
    case "edit":
    case "delete":
      return actor !== null && readable && (actor.id === book.authorId || canInCircle(actor, "moderate", book.circle));
  }
}

/** The answers a page or an API response hands to the client (`can`). */
export function bookPermissions(actor: Viewer | null, book: BookResource): { edit: boolean; delete: boolean } {
  return { edit: can(actor, "edit", book), delete: can(actor, "delete", book) };
}
