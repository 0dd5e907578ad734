/** The message-centre categories a client can mark read, and the counters each one zeroes. */
export const readCategories = {
  answers: ["answer_count"],
  reply: ["unread_replies"],
  comment: ["unread_comment_count"],
  announcements: ["unread_announcement_count"],
  system: ["unread_sysmeg_count"],
  "like-favorite": ["unread_like_count", "unread_favorite_count"],
  follow: ["unread_follow_count"],
  "private-chat": ["unread_private_chat"],
  /** @ mentions (a counter beside the spec's nine, so the @ page has its own). */
  at: ["unread_at_count"],
} as const satisfies Record<string, readonly (keyof UnreadCounts)[]>;

export type ReadCategory = keyof typeof readCategories;

export function isReadCategory(value: string): value is ReadCategory {
  return Object.hasOwn(readCategories, value);
}

export interface UnreadCounts {
  answer_count: number;
  unread_comment_count: number;
  unread_replies: number;
  unread_announcement_count: number;
  unread_sysmeg_count: number;
  unread_like_count: number;
  unread_favorite_count: number;
  unread_follow_count: number;
  unread_private_chat: number;
  unread_at_count: number;
}

export const zeroUnread: UnreadCounts = {
  answer_count: 0,
  unread_comment_count: 0,
  unread_replies: 0,
  unread_announcement_count: 0,
  unread_sysmeg_count: 0,
  unread_like_count: 0,
  unread_favorite_count: 0,
  unread_follow_count: 0,
  unread_private_chat: 0,
  unread_at_count: 0,
};

export function unreadTotal(counts: UnreadCounts): number {
  return Object.values(counts).reduce((sum, value) => sum + value, 0);
}

/** The message-centre pages (/messages/{category}) and the read categories each one covers. */
export const messageCentreCategories = {
  reply_comment: ["reply", "comment"],
  answers: ["answers"],
  like_attention: ["like-favorite", "follow"],
  at: ["at"],
  system_notice: ["system"],
  announcements: ["announcements"],
  chat: ["private-chat"],
} as const satisfies Record<string, readonly ReadCategory[]>;

export type MessageCentreCategory = keyof typeof messageCentreCategories;

export function isMessageCentreCategory(value: string): value is MessageCentreCategory {
  return Object.hasOwn(messageCentreCategories, value);
}

/** Unread messages of one message-centre page. */
export function unreadIn(category: MessageCentreCategory, counts: UnreadCounts): number {
  return messageCentreCategories[category].flatMap((read) => readCategories[read]).reduce((sum, counter) => sum + counts[counter], 0);
}

/**
 * Which notification categories (features/messages/notifications.ts) each counter counts; null
 * for the two counted elsewhere (announcements are site-wide, chat messages are not notifications).
 */
export const counterCategories = {
  answer_count: ["answers"],
  unread_comment_count: ["comment"],
  unread_replies: ["reply"],
  unread_announcement_count: null,
  unread_sysmeg_count: ["system"],
  unread_like_count: ["like"],
  unread_favorite_count: ["favorite"],
  unread_follow_count: ["follow"],
  unread_private_chat: null,
  unread_at_count: ["at"],
} as const satisfies Record<
  keyof UnreadCounts,
  readonly ("answers" | "reply" | "comment" | "at" | "like" | "favorite" | "follow" | "system")[] | null
>;

/** The categories a user may mute (system notices and private messages cannot be muted): features/messages/preferences.ts. */
export const mutableCategories = ["answers", "reply", "comment", "at", "like", "favorite", "follow", "announcements"] as const;
export type MutableCategory = (typeof mutableCategories)[number];

export function isMutableCategory(value: string): value is MutableCategory {
  return (mutableCategories as readonly string[]).includes(value);
}
