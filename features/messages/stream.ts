import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../common/app-error.ts";
import { idSchema } from "../../common/id.ts";
import { onInvalidate, onResync } from "../../server/lib/invalidation.ts";
import { countInstance } from "../../server/lib/single-instance.ts";
import { sql } from "drizzle-orm";
import type { Database, DatabaseHandle, Executor } from "../../server/db/client.ts";
import { randomUUID } from "node:crypto";
import { createStreamRoster, streamsChannel, type LocalStream, type StreamRoster } from "./stream-roster.ts";
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
  /** Names it to the other processes (the per-user cap, `stream-roster.ts`). */
  id: string;
  openedAt: number;
  token: string;
  reply: FastifyReply;
  /** The newest notification id sent. */
  lastId: number;
  /** The newest private message id looked at. */
  lastChatId: number;
  /** Set once its start position is known: pushes before that would read from the beginning. */
  ready: boolean;
}

/**
 * A user's open streams (one per browser is the rule: its tabs share one). A change is read once
 * for the user and written to each stream from its own position; one queue per user serializes
 * the pushes, so two changes close together send each line once.
 */
interface UserStreams {
  viewer: Viewer;
  streams: Set<Stream>;
  queue: Promise<void>;
}

/** Beyond this many streams of one user the oldest is closed (its browser reconnects if it still listens). */
export const maxStreamsPerUser = 8;
/** A stream whose reader lets more than this wait unread is dropped instead of growing without bound. */
export const maxBufferedBytes = 256 * 1024;

const users = new Map<number, UserStreams>();

/** The stream's end: ends the response (its `close` handler forgets the stream). */
function drop(stream: Pick<Stream, "reply">): void {
  stream.reply.raw.destroy();
}

/**
 * A message (`data` is its JSON, serialized once for every stream of the user); those that
 * replay (notifications, private messages) carry `id: <notification>-<message>`, the newest of
 * each sent so far, so `Last-Event-ID` resumes both. A reader that does not read is dropped.
 */
export function write(stream: Pick<Stream, "reply" | "lastId" | "lastChatId">, data: string, replayable = false): void {
  const head = replayable ? `id: ${stream.lastId}-${stream.lastChatId}\n` : "";
  const raw = stream.reply.raw;
  if (raw.destroyed) return;
  raw.write(`${head}data: ${data}\n\n`);
  if (raw.writableLength > maxBufferedBytes) drop(stream);
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

/**
 * Sends each of the user's streams every notification and private message newer than the last
 * ones it was sent, then the counters: read once for all of them, from the oldest position among them.
 */
async function push(db: Database, user: UserStreams, targets: Stream[], withCounters = true): Promise<void> {
  if (targets.length === 0) return;
  const viewer = user.viewer;
  const { items, lastId } = await notificationsAfter(db, viewer, Math.min(...targets.map((stream) => stream.lastId)));
  const lines = items.map((line) => ({
    id: line.id,
    data: JSON.stringify({ sse_type: "notification", notification: presentNotification(line) }),
  }));
  const chats = (await chatMessagesAfter(db, viewer.id, Math.min(...targets.map((stream) => stream.lastChatId)))).map((message) => {
    const peer = message.senderId === viewer.id ? message.recipientName : message.senderName;
    return {
      id: message.id,
      data: JSON.stringify({ sse_type: "chat", peer, message: presentChatMessage(message, viewer, { username: peer }) }),
    };
  });
  for (const stream of targets) {
    for (const line of lines) {
      if (line.id <= stream.lastId) continue;
      stream.lastId = line.id;
      write(stream, line.data, true);
    }
    stream.lastId = Math.max(stream.lastId, lastId);
    for (const message of chats) {
      if (message.id <= stream.lastChatId) continue;
      stream.lastChatId = message.id;
      write(stream, message.data, true);
    }
  }
  if (withCounters) await sendCounters(db, user, targets);
}

const readyStreams = (user: UserStreams) => [...user.streams].filter((stream) => stream.ready);

async function sendCounters(db: Database, user: UserStreams, targets: Stream[] = readyStreams(user)): Promise<void> {
  if (targets.length === 0) return;
  // `version`: the browser keeps the newer of two snapshots (see getUnreadSnapshot).
  const { counts: unread, version } = await getUnreadSnapshot(db, user.viewer.id);
  const subscription = JSON.stringify({ sse_type: "subscription", unread_follow_count: unread.unread_follow_count, version });
  const counters = JSON.stringify({ sse_type: "unread", unread, version });
  for (const stream of targets) {
    write(stream, subscription);
    write(stream, counters);
  }
}

export interface StreamOptions {
  /** Heartbeat (and session check) interval; 25 s. */
  heartbeatMs?: number;
  /** On a PostgreSQL server, the per-user cap counts every process's streams (`stream-roster.ts`). */
  database?: DatabaseHandle;
}

export async function messageStream(app: FastifyInstance, options: StreamOptions = {}): Promise<void> {
  const heartbeatMs = options.heartbeatMs ?? 25_000;
  const roster = await connectRoster(app, options.database);
  const enqueue = (user: UserStreams, task: () => Promise<void>) => {
    user.queue = user.queue.then(task).catch((error) => app.log.warn({ err: error }, "stream push failed"));
  };
  const stopListening = onInvalidate((tags) => {
    for (const tag of tags) {
      if (tag === announcementsTag) {
        // A new announcement: every user's announcement counter.
        setImmediate(() => {
          for (const user of users.values()) enqueue(user, () => sendCounters(app.db, user));
        });
        continue;
      }
      const read = /^chat-read:(\d+):(\d+)$/.exec(tag);
      if (read) {
        const readerId = Number(read[2]);
        const user = users.get(Number(read[1]));
        if (!user) continue;
        enqueue(user, async () => {
          const receipt = await readReceipt(app.db, user.viewer.id, readerId);
          if (!receipt) return;
          const data = JSON.stringify({ sse_type: "chat_read", peer: receipt.peer, read_up_to: receipt.upToId });
          for (const stream of readyStreams(user)) write(stream, data);
        });
        continue;
      }
      const block = /^chat-block:(\d+):(\d+)$/.exec(tag);
      if (block) {
        const blockerId = Number(block[1]);
        const user = users.get(Number(block[2]));
        if (!user) continue;
        enqueue(user, async () => {
          const notice = await blockNotice(app.db, blockerId, user.viewer.id);
          if (!notice) return;
          const data = JSON.stringify({ sse_type: "chat_blocked", peer: notice.peer, blocked: notice.blocked });
          for (const stream of readyStreams(user)) write(stream, data);
        });
        continue;
      }
      const match = /^(?:unread|chat):(\d+)$/.exec(tag);
      const user = match ? users.get(Number(match[1])) : undefined;
      if (!user) continue;
      // After the remembered counters have been dropped by their own listener.
      setImmediate(() => enqueue(user, () => push(app.db, user, readyStreams(user))));
    }
  });
  // Changes may have been missed while the channel was down: every stream re-reads from its last event id.
  const stopResync = onResync(() => {
    setImmediate(() => {
      for (const user of users.values()) enqueue(user, () => push(app.db, user, readyStreams(user)));
    });
  });
  app.addHook("onClose", async () => {
    stopListening();
    stopResync();
    for (const user of users.values()) for (const stream of user.streams) stream.reply.raw.end();
    users.clear();
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
        id: randomUUID(),
        openedAt: Date.now(),
        token: request.cookies[sessionCookieName] ?? "",
        reply,
        lastId: 0,
        lastChatId: 0,
        ready: false,
      };
      // Listening before anything is read: a change committed while the stream starts wakes it
      // again after its first push (queued behind it), so it never ends on counters read too early.
      let user = users.get(viewer.id);
      if (!user) {
        user = { viewer, streams: new Set(), queue: Promise.resolve() };
        users.set(viewer.id, user);
      }
      user.viewer = viewer;
      // Sets keep their insertion order: the first is the oldest.
      while (user.streams.size >= maxStreamsPerUser) {
        const oldest = user.streams.values().next().value!;
        user.streams.delete(oldest);
        oldest.reply.raw.end();
      }
      user.streams.add(stream);
      roster?.opened(viewer.id, localStream(stream));
      const owner = user;
      enqueue(owner, async () => {
        const from = replayFrom ?? parseEventId(await currentEventId(app.db, viewer.id))!;
        stream.lastId = from.notification;
        stream.lastChatId = from.chat ?? (await newestChatMessageId(app.db));
        stream.ready = true;
        reply.raw.write(`retry: 5000\n\n`);
        if (owner.streams.has(stream)) await push(app.db, owner, [stream]);
      });

      const close = () => {
        clearInterval(heartbeat);
        if (owner.streams.delete(stream)) roster?.closed(viewer.id, stream.id);
        if (owner.streams.size === 0 && users.get(viewer.id) === owner) users.delete(viewer.id);
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

const localStream = (stream: Stream): LocalStream => ({ id: stream.id, openedAt: stream.openedAt, end: () => stream.reply.raw.end() });

/** How often a process repeats the list of its streams to the others. */
const rosterMs = 30_000;

/** The cross-process roster of streams (PostgreSQL server only: the embedded store is one process). */
async function connectRoster(app: FastifyInstance, database: DatabaseHandle | undefined): Promise<StreamRoster | undefined> {
  if (!database?.listen) return undefined;
  const roster = createStreamRoster({
    origin: randomUUID(),
    cap: maxStreamsPerUser,
    rosterMs,
    send: (message) => {
      database.db.execute(sql`select pg_notify(${streamsChannel}, ${message})`).catch((error: unknown) => {
        app.log.warn({ err: error }, "could not announce a live stream to the other processes");
      });
    },
    local: (user) => [...(users.get(user)?.streams ?? [])].map(localStream),
    localUsers: () => users.keys(),
  });
  const stop = await database.listen(streamsChannel, (payload) => roster.receive(payload), { onReconnect: () => roster.reset() });
  const repeat = setInterval(() => roster.repeat(), rosterMs);
  repeat.unref();
  app.addHook("onClose", async () => {
    clearInterval(repeat);
    await stop();
  });
  return roster;
}
