import type { Viewer } from "../accounts/viewer.ts";
import { can as canInCircle, type CircleAccess } from "../circles/policy.ts";

export type QuestionAction =
  /** Read it and its answers (and see that it exists: otherwise 404). */
  | "read"
  /** Change its title, description and fields. */
  | "edit"
  /** Delete it for good, with its answers. */
  | "delete"
  /** Answer it (once: the unique index keeps the rest out). */
  | "answer"
  /** Accept one of its answers, change or withdraw the choice. */
  | "accept"
  /** Follow it (told of new answers). */
  | "follow";

export type AnswerAction = "read" | "edit" | "delete";

export interface QuestionResource {
  question: { authorId: number };
  /** The viewer's access to the question's circle. */
  access: CircleAccess;
}

export interface AnswerResource extends QuestionResource {
  answer: { authorId: number };
}

/**
 * Who may do what with a question. Reading follows the circle's content visibility; answering is
 * writing in the circle (the circles policy's `write`); the asker edits and accepts; deleting is
 * the asker's or the circle's moderators' (masters and above).
 */
export function can(actor: Viewer | null, action: QuestionAction, resource: QuestionResource): boolean {
  const readable = canInCircle(actor, "read_content", resource.access);
  if (action === "read") return readable;
  if (!actor || !readable) return false;
  const asker = resource.question.authorId === actor.id;
  switch (action) {
    case "edit":
    case "accept":
      return asker;
    case "delete":
      return asker || canInCircle(actor, "moderate", resource.access);
    case "answer":
      return canInCircle(actor, "write", resource.access);
    case "follow":
      return true;
  }
}

/** An answer: its author edits it; its author or the circle's moderators delete it. */
export function canOnAnswer(actor: Viewer | null, action: AnswerAction, resource: AnswerResource): boolean {
  const readable = canInCircle(actor, "read_content", resource.access);
  if (action === "read") return readable;
  if (!actor || !readable) return false;
  const author = resource.answer.authorId === actor.id;
  if (action === "edit") return author;
  return author || canInCircle(actor, "moderate", resource.access);
}

/** Asking in a circle: the circles policy's `write`. */
export function canAskIn(actor: Viewer | null, access: CircleAccess): boolean {
  return canInCircle(actor, "write", access);
}

export function questionPermissions(actor: Viewer | null, resource: QuestionResource) {
  return {
    edit: can(actor, "edit", resource),
    delete: can(actor, "delete", resource),
    answer: can(actor, "answer", resource),
    accept: can(actor, "accept", resource),
    follow: can(actor, "follow", resource),
  };
}
