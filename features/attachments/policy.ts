import type { Viewer } from "../accounts/viewer.ts";

export type AttachmentAction =
  /** Upload an image (editor, avatar): any signed-in user. */
  "upload";

export function can(actor: Viewer | null, action: AttachmentAction): boolean {
  if (!actor) return false;
  switch (action) {
    case "upload":
      return true;
  }
}
