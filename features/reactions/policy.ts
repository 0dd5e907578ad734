import type { Viewer } from "../accounts/viewer.ts";
import { can as canInCircle } from "../circles/policy.ts";
import type { LoadedSubject } from "../subjects/registry.ts";

/**
 * Who may like or dislike a subject: anyone signed in who may read it (the subject was loaded for
 * this viewer, so an unreadable one is already not found; in a circle its `read_content` applies).
 * Authors may react to their own work, as on Juejin; nobody is told of their own acts.
 * The dislike count is shown to the subject's author only (Zhihu's model: no public downvotes).
 */
export function canReact(viewer: Viewer | null, subject: Pick<LoadedSubject, "access">): boolean {
  if (!viewer) return false;
  return subject.access === null || canInCircle(viewer, "read_content", subject.access);
}

export function seesDislikes(viewer: Viewer | null, subject: Pick<LoadedSubject, "authorId">): boolean {
  return viewer !== null && subject.authorId !== null && viewer.id === subject.authorId;
}
