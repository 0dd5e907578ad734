import { AppError } from "../../common/app-error.ts";

/**
 * The 409 `edit_conflict` of a versioned document (a writing, a question, an answer) whose version
 * moved on since the editor opened it: the current text and version, so the editor can show it
 * beside the user's and lose nothing. A document without a title (an answer) answers none.
 */
export function editConflict(current: { title?: string; markdown: string; version: number; editedAt: Date | null }): AppError {
  return new AppError("edit_conflict", {
    details: {
      current_version: current.version,
      current: {
        ...(current.title === undefined ? {} : { title: current.title }),
        content: current.markdown,
        version: current.version,
        edited_at: current.editedAt?.toISOString() ?? null,
      },
    },
  });
}
