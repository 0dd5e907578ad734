import type { Viewer } from "../accounts/viewer.ts";

export type MessageAction =
  /** Unread counters, the message centre, marking a category read: one's own only. */
  "read_messages";

export function can(actor: Viewer | null, action: MessageAction, resource: { ownerId: number }): boolean {
  switch (action) {
    case "read_messages":
      return actor !== null && actor.id === resource.ownerId;
  }
}
