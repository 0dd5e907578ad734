import type { Executor } from "../../server/db/client.ts";
import { AppError } from "../../common/app-error.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { isCommentable, loadSubject, type LoadedSubject } from "../subjects/registry.ts";

/** A subject comments are about: any registered kind whose registration says `commentable`. */
export type CommentSubject = LoadedSubject;

export function isCommentSubject(subject: LoadedSubject): subject is CommentSubject {
  return isCommentable(subject.type);
}

/**
 * The subject, when the viewer may read it, from the subject registry: `not_found` (or
 * `not_authenticated` for a visitor who may see the circle but not read it), exactly like the
 * subject's own routes; a kind that takes no comments (or an unknown one) is `not_found` too.
 */
export async function loadCommentSubject(db: Executor, viewer: Viewer | null, type: string, id: number): Promise<CommentSubject> {
  if (!isCommentable(type)) throw new AppError("not_found");
  return loadSubject(db, viewer, type, id);
}
