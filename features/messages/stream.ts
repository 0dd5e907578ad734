import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../common/app-error.ts";
import { idSchema } from "../../common/id.ts";
import { onInvalidate } from "../../server/lib/invalidation.ts";
import { countInstance } from "../../server/lib/single-instance.ts";
import { sql } from "drizzle-orm";
import type { Database, Executor } from "../../server/db/client.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { findSessionViewer } from "../accounts/service.ts";
import { sessionCookieName } from "../accounts/cookies.server.ts";
import { getUnreadSnapshot } from "./service.ts";
import { notificationsAfter } from "./notifications.ts";
import { eventIdPattern, formatEventId, parseEventId } from "./event-id.ts";
import { presentNotification } from "./operations.ts";
import { unreadTag } from "./unread-memory.ts";
import { announcementsTag } from "../../server/lib/cache-tags.ts";
import { chatMessagesAfter, newestChatMessageId, readReceipt } from "../chats/service.ts";
import { presentChatMessage } from "../chats/operations.ts";
import { blockNotice } from "../chats/blocks.ts";

/**
 * `GET /apiv2/sse?user_id={id}`: the signed-in user's live stream (spec §7). The session decides
 * who it is; a `user_id` that is not the viewer's is a 403. It carries JSON messages with
 * `sse_type`: `subscription` (the follow counter, as spec §4 says), `unread` (every counter) and
 * `notification` (a new line), `chat` (a private message to or from the user, with its `peer`) and
 * `chat_read` (the peer read the user's messages up to `read_up_to`), `chat_blocked` (`peer` blocked
 * the user, or unblocked them: `blocked`). Notifications and messages
 * carry `id: <notification>-<message>`, so a reconnect with `Last-Event-ID` replays what was missed
 * from the tables, not from memory.
 *
 * A change reaches the stream through the invalidation of the user's unread tag, which every
 * write of their notifications causes after commit and which travels between processes by
 * PostgreSQL NOTIFY: a client on process B hears what process A committed.
 */
countInstance("messages/stream");

interface Stream {
  viewer: Viewer;
  token: string;
  reply: FastifyReply;
  /** The newest notification id sent. */
  lastId: number;
  /** The newest private message id looked at. */
  lastChatId: number;
  /** Serializes pushes, so two changes close together send each line once. */
  queue: Promise<void>;
}

const streams = new Map<number, Set<Stream>>();

/**
 * A message; those that replay (notifications, private messages) carry `id: <notification>-<message>`,
 * the newest of each sent so far, so `Last-Event-ID` resumes both.
 */
function write(stream: Stream, message: Record<string, unknown>, replayable = false): void {
  const head = replayable ? `id: ${stream.lastId}-${stream.lastChatId}\n` : "";
  stream.reply.raw.write(`${head}data: ${JSON.stringify(message)}\n\n`);
}

/**
 * Where a stream of the user's would start now: the newest notification of theirs and the newest
 * private message of all, as an event id (`<notification>-<message>`), in one round trip. A page
 * carries it from its render, so the first connect resumes there and misses nothing committed
 * between the render and the connect.
 */
export async function currentEventId(db: Executor, userId: number): Promise<string> {
  const result = await db.execute(sql`
    select
      (select coalesce(max(id), 0) from notifications where recipient_id = ${userId}) as notification,
      (select coalesce(max(id), 0) from chat_messages) as chat`);
  const row = (result as unknown as { rows: { notification: string | number; chat: string | number }[] }).rows[0]!;
  return formatEventId({ notification: Number(row.notification), chat: Number(row.chat) });
}

/** Sends every notification and private message newer than the last ones sent, then the counters. */
async function push(db: Database, stream: Stream, withCounters = true): Promise<void> {
  const { items, lastId } = await notificationsAfter(db, stream.viewer, stream.lastId);
  for (const line of items) {
    stream.lastId = line.id;
    write(stream, { sse_type: "notification", notification: presentNotification(line) }, true);
  }
  stream.lastId = Math.max(stream.lastId, lastId);
  const chats = await chatMessagesAfter(db, stream.viewer.id, stream.lastChatId);
  for (const message of chats) {
    stream.lastChatId = message.id;
    const peer = message.senderId === stream.viewer.id ? message.recipientName : message.senderName;
    write(stream, { sse_type: "chat", peer, message: presentChatMessage(message, stream.viewer, { username: peer }) }, true);
  }
  if (!withCounters) return;
  await sendCounters(db, stream);
}

async function sendCounters(db: Database, stream: Stream): Promise<void> {
  // `version`: the browser keeps the newer of two snapshots (see getUnreadSnapshot).
  const { counts: unread, version } = await getUnreadSnapshot(db, stream.viewer.id);
  write(stream, { sse_type: "subscription", unread_follow_count: unread.unread_follow_count, version });
  write(stream, { sse_type: "unread", unread, version });
}

export interface StreamOptions {
  /** Heartbeat (and session check) interval; 25 s. */
  heartbeatMs?: number;
}

export async function messageStream(app: FastifyInstance, options: StreamOptions = {}): Promise<void> {
  const heartbeatMs = options.heartbeatMs ?? 25_000;
  const enqueue = (stream: Stream, task: () => Promise<void>) => {
    stream.queue = stream.queue.then(task).catch((error) => app.log.warn({ err: error }, "stream push failed"));
  };
  const stopListening = onInvalidate((tags) => {
    for (const tag of tags) {
      if (tag === announcementsTag) {
        // A new announcement: every stream's announcement counter.
        setImmediate(() => {
          for (const userStreams of streams.values()) for (const stream of userStreams) enqueue(stream, () => sendCounters(app.db, stream));
        });
        continue;
      }
      const read = /^chat-read:(\d+):(\d+)$/.exec(tag);
      if (read) {
        const readerId = Number(read[2]);
        for (const stream of streams.get(Number(read[1])) ?? []) {
          enqueue(stream, async () => {
            const receipt = await readReceipt(app.db, stream.viewer.id, readerId);
            if (receipt) write(stream, { sse_type: "chat_read", peer: receipt.peer, read_up_to: receipt.upToId });
          });
        }
        continue;
      }
      const block = /^chat-block:(\d+):(\d+)$/.exec(tag);
      if (block) {
        const blockerId = Number(block[1]);
        for (const stream of streams.get(Number(block[2])) ?? []) {
          enqueue(stream, async () => {
            const notice = await blockNotice(app.db, blockerId, stream.viewer.id);
            if (notice) write(stream, { sse_type: "chat_blocked", peer: notice.peer, blocked: notice.blocked });
          });
        }
        continue;
      }
      const match = /^(?:unread|chat):(\d+)$/.exec(tag);
      const userStreams = match ? streams.get(Number(match[1])) : undefined;
      if (!userStreams) continue;
      // After the remembered counters have been dropped by their own listener.
      setImmediate(() => {
        for (const stream of userStreams) enqueue(stream, () => push(app.db, stream));
      });
    }
  });
  app.addHook("onClose", async () => {
    stopListening();
    for (const userStreams of streams.values()) for (const stream of userStreams) stream.reply.raw.end();
    streams.clear();
  });

  app.withTypeProvider<ZodTypeProvider>().get(
    "/apiv2/sse",
    {
      schema: {
        tags: ["messages"],
        summary: "The signed-in user's live stream of counters and notifications (text/event-stream)",
        // `last_event_id`: the same as the header, for clients that connect or reconnect by hand (a
        // page's first connect passes the position it was rendered at).
        querystring: z.object({ user_id: idSchema, last_event_id: z.string().regex(eventIdPattern).optional() }),
        headers: z.object({ "last-event-id": z.string().max(40).optional() }).passthrough(),
        response: { 200: z.string().describe("text/event-stream") },
      },
    },
    async (request, reply) => {
      const viewer = await request.viewer();
      if (!viewer) throw new AppError("not_authenticated");
      if (request.query.user_id !== viewer.id) throw new AppError("forbidden");
      const lastEventId = request.headers["last-event-id"] ?? request.query.last_event_id;
      const replayFrom = parseEventId(lastEventId);

      reply.hijack();
      reply.raw.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache",
        "x-accel-buffering": "no",
        connection: "keep-alive",
      });
      const stream: Stream = {
        viewer,
        token: request.cookies[sessionCookieName] ?? "",
        reply,
        lastId: 0,
        lastChatId: 0,
        queue: Promise.resolve(),
      };
      // Listening before anything is read: a change committed while the stream starts wakes it
      // again after its first push (queued behind it), so it never ends on counters read too early.
      const userStreams = streams.get(viewer.id) ?? new Set<Stream>();
      userStreams.add(stream);
      streams.set(viewer.id, userStreams);
      stream.queue = (async () => {
        const from = replayFrom ?? parseEventId(await currentEventId(app.db, viewer.id))!;
        stream.lastId = from.notification;
        stream.lastChatId = from.chat ?? (await newestChatMessageId(app.db));
        reply.raw.write(`retry: 5000\n\n`);
        await push(app.db, stream);
      })().catch((error) => app.log.warn({ err: error }, "stream start failed"));

      const close = () => {
        clearInterval(heartbeat);
        userStreams.delete(stream);
        if (userStreams.size === 0 && streams.get(viewer.id) === userStreams) streams.delete(viewer.id);
      };
      // Heartbeats keep proxies from closing an idle stream; each checks the session is still there (logout, revocation).
      const heartbeat = setInterval(() => {
        void findSessionViewer(app.db, stream.token).then(
          (still) => {
            if (still?.id !== viewer.id) return reply.raw.end();
            reply.raw.write(`: heartbeat\n\n`);
          },
          () => undefined,
        );
      }, heartbeatMs);
      heartbeat.unref();
      reply.raw.on("close", close);
    },
  );
}

/** The tag that wakes a user's streams (for tests). */
export const streamTag = unreadTag;
