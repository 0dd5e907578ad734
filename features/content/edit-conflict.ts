import { AppError } from "../../common/app-error.ts";

/** What a conflict shows of the current document. */
export interface EditedDocument {
  title?: string;
  markdown: string;
  version: number;
  editedAt: Date | null;
}

/**
 * The 409 `edit_conflict` of a versioned document (a writing, a question, an answer) whose version
 * moved on since the editor opened it: the current text and version, so the editor can show it
 * beside the user's and lose nothing. A document without a title (an answer) answers none.
 */
export function editConflict(current: EditedDocument): AppError {
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

/**
 * Why a versioned update (`… where id = ? and version = ?`) changed no row, from the document as
 * it is now (`current`, the query of it by id): gone (`not_found`) or edited since (`edit_conflict`).
 */
export async function failedEdit(current: PromiseLike<EditedDocument[]>): Promise<AppError> {
  const [row] = await current;
  return row ? editConflict(row) : new AppError("not_found");
}
