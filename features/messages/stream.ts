import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../common/app-error.ts";
import { idSchema } from "../../common/id.ts";
import { onInvalidate } from "../../server/lib/invalidation.ts";
import { countInstance } from "../../server/lib/single-instance.ts";
import type { Database } from "../../server/db/client.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { findSessionViewer } from "../accounts/service.ts";
import { sessionCookieName } from "../accounts/cookies.server.ts";
import { getUnreadCounts } from "./service.ts";
import { newestNotificationId, notificationsAfter } from "./notifications.ts";
import { presentNotification } from "./operations.ts";
import { unreadTag } from "./unread-memory.ts";

/**
 * `GET /apiv2/sse?user_id={id}`: the signed-in user's live stream (spec §7). The session decides
 * who it is; a `user_id` that is not the viewer's is a 403. It carries JSON messages with
 * `sse_type`: `subscription` (the follow counter, as spec §4 says), `unread` (every counter) and
 * `notification` (a new line, with `id:` its notification id, so a reconnect with `Last-Event-ID`
 * replays what was missed from the notifications table, not from memory).
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
  /** Serializes pushes, so two changes close together send each line once. */
  queue: Promise<void>;
}

const streams = new Map<number, Set<Stream>>();

function write(stream: Stream, message: Record<string, unknown>, id?: number): void {
  const head = id === undefined ? "" : `id: ${id}\n`;
  stream.reply.raw.write(`${head}data: ${JSON.stringify(message)}\n\n`);
}

/** Sends the counters and every notification newer than the last one sent. */
async function push(db: Database, stream: Stream, withCounters = true): Promise<void> {
  const { items, lastId } = await notificationsAfter(db, stream.viewer, stream.lastId);
  for (const line of items) write(stream, { sse_type: "notification", notification: presentNotification(line) }, line.id);
  stream.lastId = Math.max(stream.lastId, lastId);
  if (!withCounters) return;
  const unread = await getUnreadCounts(db, stream.viewer.id);
  write(stream, { sse_type: "subscription", unread_follow_count: unread.unread_follow_count });
  write(stream, { sse_type: "unread", unread });
}

export interface StreamOptions {
  /** Heartbeat (and session check) interval; 25 s. */
  heartbeatMs?: number;
}

export async function messageStream(app: FastifyInstance, options: StreamOptions = {}): Promise<void> {
  const heartbeatMs = options.heartbeatMs ?? 25_000;
  const stopListening = onInvalidate((tags) => {
    for (const tag of tags) {
      const match = /^unread:(\d+)$/.exec(tag);
      const userStreams = match ? streams.get(Number(match[1])) : undefined;
      if (!userStreams) continue;
      // After the remembered counters have been dropped by their own listener.
      setImmediate(() => {
        for (const stream of userStreams) {
          stream.queue = stream.queue.then(() => push(app.db, stream)).catch((error) => app.log.warn({ err: error }, "stream push failed"));
        }
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
        // `last_event_id`: the same as the header, for clients that reconnect by hand.
        querystring: z.object({ user_id: idSchema, last_event_id: z.string().max(24).optional() }),
        headers: z.object({ "last-event-id": z.string().max(24).optional() }).passthrough(),
        response: { 200: z.string().describe("text/event-stream") },
      },
    },
    async (request, reply) => {
      const viewer = await request.viewer();
      if (!viewer) throw new AppError("not_authenticated");
      if (request.query.user_id !== viewer.id) throw new AppError("forbidden");
      const lastEventId = request.headers["last-event-id"] ?? request.query.last_event_id;
      const replayFrom = typeof lastEventId === "string" && /^\d{1,18}$/.test(lastEventId) ? Number(lastEventId) : null;

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
        lastId: replayFrom ?? (await newestNotificationId(app.db, viewer.id)),
        queue: Promise.resolve(),
      };
      reply.raw.write(`retry: 5000\n\n`);
      const userStreams = streams.get(viewer.id) ?? new Set<Stream>();
      userStreams.add(stream);
      streams.set(viewer.id, userStreams);
      stream.queue = push(app.db, stream).catch((error) => app.log.warn({ err: error }, "stream start failed"));

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
