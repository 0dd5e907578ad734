import type { Executor } from "../../server/db/client.ts";
import { commentSubjectTypes } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { loadSubject, type LoadedSubject } from "../subjects/registry.ts";

export type CommentSubjectType = (typeof commentSubjectTypes)[number];

/** A subject comments are about: any registered kind the comments table accepts (writings now). */
export type CommentSubject = LoadedSubject & { type: CommentSubjectType };

export function isCommentSubject(subject: LoadedSubject): subject is CommentSubject {
  return (commentSubjectTypes as readonly string[]).includes(subject.type);
}

/**
 * The subject, when the viewer may read it, from the subject registry: `not_found` (or
 * `not_authenticated` for a visitor who may see the circle but not read it), exactly like the
 * subject's own routes; a kind comments are not open to yet is `not_found` too.
 */
export async function loadCommentSubject(db: Executor, viewer: Viewer | null, type: string, id: number): Promise<CommentSubject> {
  const subject = await loadSubject(db, viewer, type, id);
  if (!isCommentSubject(subject)) throw new AppError("not_found");
  return subject;
}
