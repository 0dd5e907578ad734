import { aliasedTable, and, desc, eq, gt, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Database, Executor } from "../../server/db/client.ts";
import { attachments, chatConversations, chatMessages, users } from "../../server/db/schema/index.ts";
import { inTransaction, type ServiceOptions, type Transaction } from "../../server/lib/transactions.ts";
import { chatReadTag, chatTag } from "../../server/lib/cache-tags.ts";
import { AppError } from "../../common/app-error.ts";
import { assertDailyAllowance } from "../trust/limits.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { defaultAvatar } from "../accounts/presenter.ts";
import { emit } from "../events/bus.ts";
import { unreadTag } from "../messages/unread-memory.ts";
import { blockBetween } from "./blocks.ts";

/*
 * Private chat: messages between two users, a conversation row per user and peer (the list, newest
 * first), read receipts, and the unread counter (`unread_private_chat`, counted from the unread
 * messages). Every write wakes the live streams of both people (features/messages/stream.ts).
 */

/** Against spam, per sender, counted from their messages (so it holds for the page form and across processes). */
export const chatRateLimits = [
  { windowSeconds: 10, max: 10 },
  { windowSeconds: 3600, max: 300 },
] as const;

export const chatPageSize = 30;
const conversationPageSize = 20;

export interface ChatPeer {
  id: number;
  username: string;
  nickname: string;
  avatar: string;
}

export interface ChatMessage {
  id: number;
  senderId: number;
  recipientId: number;
  text: string | null;
  imageFileId: string | null;
  createdAt: Date;
  readAt: Date | null;
}

export interface Conversation {
  peer: ChatPeer;
  lastMessage: ChatMessage;
  unread: number;
}

/** The user one talks with, by username (any case); `not_found` when there is none or it is oneself. */
export async function findChatPeer(db: Executor, viewer: Viewer, username: string): Promise<ChatPeer> {
  const [peer] = await db
    .select({ id: users.id, username: users.username, nickname: users.nickname, avatar: users.avatarSmall })
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
    .limit(1);
  if (!peer || peer.id === viewer.id) throw new AppError("not_found");
  return { ...peer, avatar: peer.avatar ?? defaultAvatar };
}

async function checkRate(tx: Transaction, userId: number): Promise<void> {
  await tx.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`chats:user:${userId}`}))`);
  for (const limit of chatRateLimits) {
    const [row] = await tx.db
      .select({ count: sql<number>`count(*)`.mapWith(Number), oldest: sql<string | null>`min(${chatMessages.createdAt})::text` })
      .from(chatMessages)
      .where(
        and(eq(chatMessages.senderId, userId), sql`${chatMessages.createdAt} > now() - make_interval(secs => ${limit.windowSeconds})`),
      );
    if (row && row.count >= limit.max) {
      const elapsed = row.oldest ? (Date.now() - new Date(row.oldest).getTime()) / 1000 : 0;
      throw new AppError("chat_rate_limited", { params: { seconds: Math.max(1, Math.ceil(limit.windowSeconds - elapsed)) } });
    }
  }
}

/** The peer, when the viewer may write to them now: neither blocked, not too fast. */
async function assertMaySend(tx: Transaction, viewer: Viewer, username: string): Promise<ChatPeer> {
  const peer = await findChatPeer(tx.db, viewer, username);
  const block = await blockBetween(tx.db, viewer.id, peer.id);
  if (block === "them") throw new AppError("chat_blocked");
  if (block === "me") throw new AppError("chat_you_blocked");
  await checkRate(tx, viewer.id);
  return peer;
}

/**
 * The checks of `sendChatMessage` run ahead of storing an image sent with a page form, so a
 * refused message never leaves an image behind (the send repeats them in its own transaction).
 */
export async function checkChatSend(options: ServiceOptions, viewer: Viewer, username: string): Promise<void> {
  await inTransaction(options, (tx) => assertMaySend(tx, viewer, username));
}

export interface ChatInput {
  text?: string | null;
  imageFileId?: string | null;
}

/**
 * Sends a private message (a text, an image uploaded by the sender, or both). Refused when either
 * has blocked the other (`chat_blocked`: they blocked you; `chat_you_blocked`: you blocked them) or
 * when the sender writes too fast (`chat_rate_limited`).
 */
export async function sendChatMessage(options: ServiceOptions, viewer: Viewer, username: string, input: ChatInput): Promise<ChatMessage> {
  const text = input.text?.trim() || null;
  const imageFileId = input.imageFileId || null;
  if (!text && !imageFileId) throw new AppError("validation_failed", { fields: { text: "validation:chat_message_empty" } });
  return inTransaction(options, async (tx) => {
    const peer = await assertMaySend(tx, viewer, username);
    if (imageFileId) {
      const [image] = await tx.db
        .select({ fileId: attachments.fileId })
        .from(attachments)
        .where(
          and(
            eq(attachments.fileId, imageFileId),
            eq(attachments.ownerId, viewer.id),
            inArray(attachments.contentType, ["image/jpeg", "image/png"]),
          ),
        );
      if (!image) throw new AppError("image_invalid");
    }
    await assertDailyAllowance(tx.db, viewer.id, "chat");
    const [message] = await tx.db.insert(chatMessages).values({ senderId: viewer.id, recipientId: peer.id, text, imageFileId }).returning();
    for (const [ownerId, peerId] of [
      [viewer.id, peer.id],
      [peer.id, viewer.id],
    ] as const) {
      await tx.db
        .insert(chatConversations)
        .values({ ownerId, peerId, lastMessageId: message!.id })
        .onConflictDoUpdate({ target: [chatConversations.ownerId, chatConversations.peerId], set: { lastMessageId: message!.id } });
    }
    await emit(tx, {
      verb: "chat.message_sent",
      actorId: viewer.id,
      subjectId: peer.id,
      data: { messageId: message!.id, image: imageFileId !== null },
    });
    // The sender's too: their remembered live-stream position must pass their own message.
    tx.invalidate(unreadTag(peer.id), unreadTag(viewer.id), chatTag(viewer.id));
    return message!;
  });
}

/** The viewer's conversations, newest message first, 20 a page (`cursor`: the last one's message id). */
export async function listConversations(
  db: Database,
  viewer: Viewer,
  cursor?: string,
): Promise<{ items: Conversation[]; nextCursor: string | null }> {
  const before = cursor && /^\d{1,18}$/.test(cursor) ? Number(cursor) : null;
  const rows = await db
    .select({
      peer: { id: users.id, username: users.username, nickname: users.nickname, avatar: users.avatarSmall },
      message: chatMessages,
      unread: sql<number>`(select count(*) from chat_messages u
        where u.recipient_id = ${viewer.id} and u.sender_id = ${chatConversations.peerId} and u.read_at is null)`.mapWith(Number),
    })
    .from(chatConversations)
    .innerJoin(users, eq(users.id, chatConversations.peerId))
    .innerJoin(chatMessages, eq(chatMessages.id, chatConversations.lastMessageId))
    .where(and(eq(chatConversations.ownerId, viewer.id), before === null ? undefined : lt(chatConversations.lastMessageId, before)))
    .orderBy(desc(chatConversations.lastMessageId))
    .limit(conversationPageSize + 1);
  const items = rows.slice(0, conversationPageSize).map((row) => ({
    peer: { ...row.peer, avatar: row.peer.avatar ?? defaultAvatar },
    lastMessage: row.message,
    unread: row.unread,
  }));
  return { items, nextCursor: rows.length > conversationPageSize ? String(items.at(-1)!.lastMessage.id) : null };
}

const between = (a: number, b: number) =>
  or(
    and(eq(chatMessages.senderId, a), eq(chatMessages.recipientId, b)),
    and(eq(chatMessages.senderId, b), eq(chatMessages.recipientId, a)),
  );

/** One page of the conversation with `username`, newest first (`before`: older than that message id). */
export async function listChatMessages(
  db: Database,
  viewer: Viewer,
  username: string,
  before?: number,
): Promise<{ peer: ChatPeer; items: ChatMessage[]; nextBefore: number | null }> {
  const peer = await findChatPeer(db, viewer, username);
  const rows = await db
    .select()
    .from(chatMessages)
    .where(and(between(viewer.id, peer.id), before === undefined ? undefined : lt(chatMessages.id, before)))
    .orderBy(desc(chatMessages.id))
    .limit(chatPageSize + 1);
  const items = rows.slice(0, chatPageSize);
  return { peer, items, nextBefore: rows.length > chatPageSize ? items.at(-1)!.id : null };
}

/** Marks the messages `username` sent the viewer read (their read receipts); answers the newest id read, or null. */
export async function markChatRead(options: ServiceOptions, viewer: Viewer, username: string): Promise<number | null> {
  return inTransaction(options, async (tx) => {
    const peer = await findChatPeer(tx.db, viewer, username);
    const read = await tx.db
      .update(chatMessages)
      .set({ readAt: sql`now()` })
      .where(and(eq(chatMessages.recipientId, viewer.id), eq(chatMessages.senderId, peer.id), isNull(chatMessages.readAt)))
      .returning({ id: chatMessages.id });
    if (read.length === 0) return null;
    const upToId = Math.max(...read.map((row) => row.id));
    await emit(tx, { verb: "chat.read", actorId: viewer.id, subjectId: peer.id, data: { upToId } });
    tx.invalidate(unreadTag(viewer.id), chatReadTag(peer.id, viewer.id));
    return upToId;
  });
}

/** Marks every private message to the user read (`read_meg/private-chat`), with the senders' receipts. */
export async function markAllChatsRead(tx: Transaction, userId: number): Promise<void> {
  const read = await tx.db
    .update(chatMessages)
    .set({ readAt: sql`now()` })
    .where(and(eq(chatMessages.recipientId, userId), isNull(chatMessages.readAt)))
    .returning({ senderId: chatMessages.senderId });
  for (const senderId of new Set(read.map((row) => row.senderId))) tx.invalidate(chatReadTag(senderId, userId));
}

const sender = aliasedTable(users, "sender");
const recipient = aliasedTable(users, "recipient");

export interface LiveChatMessage extends ChatMessage {
  senderName: string;
  recipientName: string;
}

/** Messages to or from the user newer than `afterId`, oldest first (the live stream's pushes and its replay). */
export async function chatMessagesAfter(db: Executor, userId: number, afterId: number, limit = 50): Promise<LiveChatMessage[]> {
  const rows = await db
    .select({ message: chatMessages, senderName: sender.username, recipientName: recipient.username })
    .from(chatMessages)
    .innerJoin(sender, eq(sender.id, chatMessages.senderId))
    .innerJoin(recipient, eq(recipient.id, chatMessages.recipientId))
    .where(and(or(eq(chatMessages.recipientId, userId), eq(chatMessages.senderId, userId)), gt(chatMessages.id, afterId)))
    .orderBy(chatMessages.id)
    .limit(limit);
  return rows.map((row) => ({ ...row.message, senderName: row.senderName, recipientName: row.recipientName }));
}

/** The newest message id of all (where a new stream starts counting). */
export async function newestChatMessageId(db: Executor): Promise<number> {
  const [row] = await db.select({ id: sql<number | null>`max(${chatMessages.id})` }).from(chatMessages);
  return Number(row?.id ?? 0);
}

/** The newest of the sender's messages to the reader that the reader has read (a read receipt), with the reader's username. */
export async function readReceipt(db: Executor, senderId: number, readerId: number): Promise<{ peer: string; upToId: number } | null> {
  const [row] = await db
    .select({ id: chatMessages.id, peer: users.username })
    .from(chatMessages)
    .innerJoin(users, eq(users.id, chatMessages.recipientId))
    .where(and(eq(chatMessages.senderId, senderId), eq(chatMessages.recipientId, readerId), sql`${chatMessages.readAt} is not null`))
    .orderBy(desc(chatMessages.id))
    .limit(1);
  return row ? { peer: row.peer, upToId: row.id } : null;
}
