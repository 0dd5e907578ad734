/**
 * The cap on one user's live streams (`maxStreamsPerUser`) across every process on one PostgreSQL
 * server: each process announces the streams it opens and closes on the `circles_streams` channel
 * (NOTIFY), keeps the others' announcements, and, when a user's streams everywhere exceed the cap,
 * ends those of the oldest that it holds itself (every process sorts the same list the same way,
 * so each oldest stream is ended exactly once, by its own process). Every `rosterMs` a process
 * repeats the list of its streams; another process's entries not repeated within three rounds are
 * forgotten (that process died). After the channel reconnects, the others' entries are forgotten
 * and the list is sent again.
 */
export const streamsChannel = "circles_streams";

export interface LocalStream {
  id: string;
  openedAt: number;
  end(): void;
}

type Message =
  | { origin: string; op: "open"; user: number; id: string; at: number }
  | { origin: string; op: "close"; user: number; id: string }
  | { origin: string; op: "roster"; streams: [number, string, number][] };

interface RemoteStream {
  origin: string;
  openedAt: number;
  seenAt: number;
}

export interface StreamRoster {
  opened(user: number, stream: LocalStream): void;
  closed(user: number, id: string): void;
  receive(payload: string): void;
  /** Sends this process's list and forgets silent processes' entries (called every `rosterMs`). */
  repeat(): void;
  /** The channel came back: what others hold must be learnt again. */
  reset(): void;
  /** How many streams of the user every process holds, as this process knows. */
  count(user: number): number;
}

/** Entries per roster message, to stay under NOTIFY's 8,000-byte payload. */
const rosterChunk = 120;

export function createStreamRoster(options: {
  origin: string;
  cap: number;
  rosterMs: number;
  send(message: string): void;
  local(user: number): LocalStream[];
  localUsers(): Iterable<number>;
  now?: () => number;
}): StreamRoster {
  const now = options.now ?? Date.now;
  const remote = new Map<number, Map<string, RemoteStream>>();

  function enforce(user: number): void {
    const local = options.local(user);
    if (local.length === 0) return;
    const everywhere = [
      ...local.map((stream) => ({ id: stream.id, openedAt: stream.openedAt, stream })),
      ...[...(remote.get(user)?.entries() ?? [])].map(([id, entry]) => ({ id, openedAt: entry.openedAt, stream: undefined })),
    ].sort((a, b) => a.openedAt - b.openedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const excess = everywhere.length - options.cap;
    for (const entry of everywhere.slice(0, Math.max(0, excess))) entry.stream?.end();
  }

  function remember(user: number, id: string, origin: string, openedAt: number): void {
    let entries = remote.get(user);
    if (!entries) remote.set(user, (entries = new Map()));
    entries.set(id, { origin, openedAt, seenAt: now() });
  }

  function forget(user: number, id: string): void {
    const entries = remote.get(user);
    entries?.delete(id);
    if (entries?.size === 0) remote.delete(user);
  }

  const send = (message: Message) => options.send(JSON.stringify(message));

  return {
    opened(user, stream) {
      send({ origin: options.origin, op: "open", user, id: stream.id, at: stream.openedAt });
      enforce(user);
    },
    closed(user, id) {
      send({ origin: options.origin, op: "close", user, id });
    },
    receive(payload) {
      let message: Message;
      try {
        message = JSON.parse(payload) as Message;
      } catch {
        return;
      }
      if (!message || message.origin === options.origin) return;
      if (message.op === "open" && Number.isInteger(message.user) && typeof message.id === "string") {
        remember(message.user, message.id, message.origin, Number(message.at) || 0);
        enforce(message.user);
      } else if (message.op === "close" && typeof message.id === "string") {
        forget(message.user, message.id);
      } else if (message.op === "roster" && Array.isArray(message.streams)) {
        for (const [user, id, at] of message.streams) remember(user, id, message.origin, at);
      }
    },
    repeat() {
      const mine: [number, string, number][] = [];
      for (const user of options.localUsers()) for (const stream of options.local(user)) mine.push([user, stream.id, stream.openedAt]);
      for (let start = 0; start < mine.length; start += rosterChunk)
        send({ origin: options.origin, op: "roster", streams: mine.slice(start, start + rosterChunk) });
      const silentSince = now() - 3 * options.rosterMs;
      for (const [user, entries] of remote) {
        for (const [id, entry] of entries) if (entry.seenAt < silentSince) entries.delete(id);
        if (entries.size === 0) remote.delete(user);
      }
    },
    reset() {
      remote.clear();
      this.repeat();
    },
    count(user) {
      return options.local(user).length + (remote.get(user)?.size ?? 0);
    },
  };
}
