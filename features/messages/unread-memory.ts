import { keyedMemory } from "../../server/lib/keyed-memory.ts";
import type { UnreadCounts } from "./schema.ts";

interface RememberedUnread {
  counts: UnreadCounts;
  announcementsReadId: number;
  announcementsMuted: boolean;
  /** The counters' version: the newest `user.messages_read` event id (features/messages/service.ts). */
  version: number;
  /**
   * Where the user's live stream starts when a page is rendered now (`<notification>-<message>`,
   * features/messages/stream.ts): every new notification and every private message to or from
   * the user invalidates the memory, so a remembered position never skips one of theirs.
   */
  liveFrom: string;
}

/** A user's unread counters as remembered between requests (features/messages/service.ts reads, every write invalidates). */
export const unreadMemory = keyedMemory<RememberedUnread>("unread", { ttlMs: 30_000, maxEntries: 50_000 });

/** The tag a change of a user's notifications or counters invalidates. */
export const unreadTag = (userId: number): string => unreadMemory.tag(userId);
