import { sql } from "drizzle-orm";
import { bigint, bigserial, check, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { attachments } from "./attachments.ts";

/** A private message from one user to another: a text, an image, or both. */
export const chatMessages = pgTable(
  "chat_messages",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    senderId: integer("sender_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    recipientId: integer("recipient_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    text: text("text"),
    imageFileId: text("image_file_id").references(() => attachments.fileId, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the recipient read it (the sender's read receipt). */
    readAt: timestamp("read_at", { withTimezone: true }),
  },
  (table) => [
    index("chat_messages_pair_idx").on(table.senderId, table.recipientId, table.id),
    // The live stream's "to or from me, newer than" (features/chats/service.ts, chatMessagesAfter).
    index("chat_messages_recipient_idx").on(table.recipientId, table.id),
    index("chat_messages_sender_idx").on(table.senderId, table.id),
    index("chat_messages_unread_idx")
      .on(table.recipientId, table.senderId)
      .where(sql`${table.readAt} is null`),
    check("chat_messages_not_self", sql`${table.senderId} <> ${table.recipientId}`),
  ],
);

/**
 * One row per user and the person they talk with (two per conversation), moved to the newest
 * message on every send: the conversation list reads it newest first without scanning messages.
 */
export const chatConversations = pgTable(
  "chat_conversations",
  {
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    peerId: integer("peer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lastMessageId: bigint("last_message_id", { mode: "number" }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.ownerId, table.peerId] }),
    index("chat_conversations_list_idx").on(table.ownerId, table.lastMessageId),
  ],
);

/** Who blocked whom: a blocked user can no longer send the blocker private messages. */
export const userBlocks = pgTable(
  "user_blocks",
  {
    blockerId: integer("blocker_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    blockedId: integer("blocked_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.blockerId, table.blockedId] }),
    check("user_blocks_not_self", sql`${table.blockerId} <> ${table.blockedId}`),
  ],
);
