import { z } from "zod";
import { defineOperation, noContent } from "../../server/lib/operation.ts";
import { attachmentUrl } from "../attachments/constants.ts";
import { blockBetween, setBlocked } from "./blocks.ts";
import { listChatMessages, listConversations, markChatRead, sendChatMessage, type ChatMessage, type ChatPeer } from "./service.ts";

/* Private chat and blocking: the API (features/chats/api.ts) and the chat pages (app/routes/messages-chat*.tsx). */

export const maxChatTextLength = 2000;

const usernameParams = z.object({ username: z.string().min(1).max(64) });

const peerAnswer = z.object({ username: z.string(), nickname: z.string(), avatar: z.string() });
export const chatMessageAnswer = z.object({
  id: z.number().int(),
  sender: z.string(),
  recipient: z.string(),
  mine: z.boolean(),
  text: z.string().nullable(),
  image_url: z.string().nullable(),
  created_at: z.string(),
  read: z.boolean(),
});
export type ChatMessageAnswer = z.infer<typeof chatMessageAnswer>;

/** A message as one of the two people sees it (`mine`: the viewer sent it). */
export function presentChatMessage(
  message: ChatMessage,
  viewer: { id: number; username: string },
  peer: { username: string },
): ChatMessageAnswer {
  const mine = message.senderId === viewer.id;
  return {
    id: message.id,
    sender: mine ? viewer.username : peer.username,
    recipient: mine ? peer.username : viewer.username,
    mine,
    text: message.text,
    image_url: message.imageFileId ? attachmentUrl(message.imageFileId) : null,
    created_at: message.createdAt.toISOString(),
    read: message.readAt !== null,
  };
}

const presentPeer = (peer: ChatPeer) => ({ username: peer.username, nickname: peer.nickname, avatar: peer.avatar });

export const listConversationsOperation = defineOperation({
  name: "listChats",
  input: { query: z.object({ cursor: z.string().max(24).optional() }) },
  viewer: "signed-in",
  run: async (services, viewer, { query }) => ({ viewer, page: await listConversations(services.db, viewer, query.cursor) }),
  present: ({ viewer, page }) => ({
    results: page.items.map((item) => ({
      peer: presentPeer(item.peer),
      last_message: presentChatMessage(item.lastMessage, viewer, item.peer),
      unread_count: item.unread,
    })),
    next_cursor: page.nextCursor,
  }),
  response: z.object({
    results: z.array(z.object({ peer: peerAnswer, last_message: chatMessageAnswer, unread_count: z.number().int() })),
    next_cursor: z.string().nullable(),
  }),
  failures: [],
});

export const listChatMessagesOperation = defineOperation({
  name: "listChatMessages",
  input: {
    params: usernameParams,
    query: z.object({ before: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional() }),
  },
  viewer: "signed-in",
  run: async (services, viewer, { params, query }) => {
    const page = await listChatMessages(services.db, viewer, params.username, query.before);
    return { viewer, page, block: await blockBetween(services.db, viewer.id, page.peer.id) };
  },
  present: ({ viewer, page, block }) => ({
    peer: presentPeer(page.peer),
    results: page.items.map((message) => presentChatMessage(message, viewer, page.peer)),
    next_before: page.nextBefore,
    you_blocked: block === "me",
    blocked_you: block === "them",
  }),
  response: z.object({
    peer: peerAnswer,
    results: z.array(chatMessageAnswer),
    next_before: z.number().int().nullable(),
    you_blocked: z.boolean(),
    blocked_you: z.boolean(),
  }),
  failures: ["not_found"],
});

export const sendChatMessageOperation = defineOperation({
  name: "sendChatMessage",
  input: {
    params: usernameParams,
    body: z.strictObject({
      text: z.string().max(maxChatTextLength, "validation:chat_text_too_long").nullish(),
      image_file_id: z.string().max(64).nullish(),
    }),
  },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) => ({
    viewer,
    message: await sendChatMessage(services, viewer, params.username, { text: body.text, imageFileId: body.image_file_id }),
    peer: { username: params.username },
  }),
  present: ({ viewer, message, peer }) => presentChatMessage(message, viewer, peer),
  response: chatMessageAnswer,
  failures: ["not_found", "chat_blocked", "chat_you_blocked", "chat_rate_limited", "image_invalid", "daily_limit_reached"],
});

export const readChatOperation = defineOperation({
  name: "readChat",
  input: { params: usernameParams, body: z.strictObject({}).nullish() },
  viewer: "signed-in",
  run: (services, viewer, { params }) => markChatRead(services, viewer, params.username),
  present: () => null,
  response: noContent,
  failures: ["not_found"],
});

const blockInput = { params: usernameParams, body: z.strictObject({}).nullish() };
const blockAnswer = z.object({ blocked: z.boolean() });

export const blockOperation = defineOperation({
  name: "blockUser",
  input: blockInput,
  viewer: "signed-in",
  run: (services, viewer, { params }) => setBlocked(services, viewer, params.username, true),
  present: (blocked) => ({ blocked }),
  response: blockAnswer,
  failures: ["not_found", "cannot_block_self"],
});

export const unblockOperation = defineOperation({
  name: "unblockUser",
  input: blockInput,
  viewer: "signed-in",
  run: (services, viewer, { params }) => setBlocked(services, viewer, params.username, false),
  present: (blocked) => ({ blocked }),
  response: blockAnswer,
  failures: ["not_found", "cannot_block_self"],
});
