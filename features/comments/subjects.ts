import type { Executor } from "../../server/db/client.ts";
import type { commentSubjectTypes } from "../../server/db/schema/index.ts";
import type { Viewer } from "../accounts/viewer.ts";
import type { CircleAccess } from "../circles/policy.ts";
import { loadReadableWriting } from "../writings/service.ts";
import type { CommentSubjectRules } from "./policy.ts";

export type CommentSubjectType = (typeof commentSubjectTypes)[number];

/** What comments are about, with what the rules need and the cache tags of the pages showing them. */
export interface CommentSubject extends CommentSubjectRules {
  type: CommentSubjectType;
  id: number;
  /** Pages that show this subject's comments (a writing's reading page: `writing:<id>`). */
  tags: string[];
}

/** A writing as a comment subject (the reading page builds it from what it already loaded). */
export function writingSubject(row: { id: number; authorId: number }, access: CircleAccess): CommentSubject {
  return { type: "writing", id: row.id, authorId: row.authorId, access, tags: [`writing:${row.id}`] };
}

/**
 * The subject, when the viewer may read it: otherwise `not_found` (or `not_authenticated` for a
 * visitor who may see the circle but not read it), exactly like the subject's own routes. Answers,
 * chapters and entries add their case here.
 */
export async function loadCommentSubject(
  db: Executor,
  viewer: Viewer | null,
  type: CommentSubjectType,
  id: number,
): Promise<CommentSubject> {
  switch (type) {
    case "writing": {
      const { row, access } = await loadReadableWriting(db, viewer, id);
      return writingSubject(row, access);
    }
  }
}
