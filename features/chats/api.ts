import type { FastifyInstance, FastifyRequest } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import {
  blockOperation,
  listChatMessagesOperation,
  listConversationsOperation,
  readChatOperation,
  sendChatMessageOperation,
  unblockOperation,
} from "./operations.ts";

/**
 * A cheap outer bound before any database work, per session; the real per-sender limit is counted
 * from the messages in the service (`chatRateLimits`), so it holds for the page form and across processes.
 */
const sendRateLimit = {
  max: 60,
  timeWindow: "1 minute",
  keyGenerator: (request: FastifyRequest) => request.cookies.sessionid ?? request.ip,
} as const;

export async function chatsApi(app: FastifyInstance): Promise<void> {
  const tags = ["chats"];
  jsonRoute(app, "GET", "/api/chats/", listConversationsOperation, {
    tags,
    summary: "One's conversations, newest message first, with the unread count and the last message (20 a page, `cursor`)",
  });
  jsonRoute(app, "GET", "/api/chats/:username/messages/", listChatMessagesOperation, {
    tags,
    summary: "The conversation with a user, newest first, 30 a page (`before`: older than that message id)",
  });
  jsonRoute(app, "POST", "/api/chats/:username/messages/", sendChatMessageOperation, {
    status: 201,
    tags,
    summary: "Send a private message: `text` (up to 2,000 characters), `image_file_id` (a JPG or PNG from `POST /api/uploads/`), or both",
    config: { rateLimit: sendRateLimit },
  });
  jsonRoute(app, "POST", "/api/chats/:username/read/", readChatOperation, {
    status: 204,
    tags,
    summary: "Mark the messages a user sent you read (their read receipts)",
  });
  jsonRoute(app, "PUT", "/api/Users/block/:username/", blockOperation, { tags, summary: "Block a user: they can no longer message you" });
  jsonRoute(app, "DELETE", "/api/Users/block/:username/", unblockOperation, { tags, summary: "Unblock a user" });
}
