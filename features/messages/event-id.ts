/**
 * A live stream's position, `<notification>-<message>`: the newest notification and private
 * message ids it has passed. It is what the stream's `id:` lines carry, what `Last-Event-ID` (or
 * `?last_event_id=`) resumes from, and what a page gives its first connect (the newest ids when it
 * was rendered), so nothing committed after the render is missed. Shared by the server and the
 * browser: no database here.
 */
export interface StreamPosition {
  notification: number;
  /** Null for a bare notification id (a client resuming by hand): the stream starts at the newest message. */
  chat: number | null;
}

/** `<notification>-<message>` or a bare notification id (ids stay below 2^53). */
export const eventIdPattern = /^(\d{1,15})(?:-(\d{1,15}))?$/;

/** Parses `<notification>-<message>` or a bare notification id; anything else is null. */
export function parseEventId(value: unknown): StreamPosition | null {
  if (typeof value !== "string") return null;
  const match = eventIdPattern.exec(value);
  if (!match) return null;
  return { notification: Number(match[1]), chat: match[2] === undefined ? null : Number(match[2]) };
}

export function formatEventId(position: { notification: number; chat: number }): string {
  return `${position.notification}-${position.chat}`;
}

/** The later of two full positions, id by id (a tab's render and what the stream told it since); either may be missing. */
export function laterEventId(a: string | null | undefined, b: string | null | undefined): string | null {
  const [first, second] = [parseEventId(a), parseEventId(b)];
  if (first?.chat == null) return second?.chat == null ? null : (b as string);
  if (second?.chat == null) return a as string;
  return formatEventId({ notification: Math.max(first.notification, second.notification), chat: Math.max(first.chat, second.chat) });
}
