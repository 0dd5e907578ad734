/**
 * The live stream in the browser: one `/apiv2/sse` connection per browser, not per tab. The tab
 * that holds the Web Lock opens it and shares every message with the other tabs through a
 * BroadcastChannel; when it closes, the lock passes to another tab, which connects. Reconnects
 * back off with jitter and resume after the last message id seen (`last_event_id`). The first
 * connect resumes from the page's render (`startFrom`, the newest ids then) or from the position
 * the previous holder shared, whichever is later: nothing committed after the render, or during
 * a hand-over between tabs, is missed.
 */
import { laterEventId } from "../../features/messages/event-id.ts";
import type { ChannelPost, StreamMessage } from "./session-store.ts";

export type LiveMessage = StreamMessage;

export function connectLive(
  userId: number,
  onMessage: (message: LiveMessage) => void,
  startFrom: () => string | null = () => null,
): () => void {
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(`circles-live-${userId}`) : null;
  let lastEventId = "";
  if (channel)
    channel.onmessage = (event: MessageEvent<ChannelPost>) => {
      if (event.data.eventId) lastEventId = laterEventId(lastEventId, event.data.eventId) ?? lastEventId;
      onMessage(event.data.message);
    };
  let stopped = false;
  let source: EventSource | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let release: (() => void) | undefined;

  const open = () => {
    if (stopped) return;
    const from = laterEventId(lastEventId, startFrom());
    const resume = from ? `&last_event_id=${encodeURIComponent(from)}` : "";
    source = new EventSource(`/apiv2/sse?user_id=${userId}${resume}`);
    source.onopen = () => (failures = 0);
    source.onmessage = (event) => {
      if (event.lastEventId) lastEventId = laterEventId(lastEventId, event.lastEventId) ?? event.lastEventId;
      let message: LiveMessage;
      try {
        message = JSON.parse(event.data as string) as LiveMessage;
      } catch {
        return;
      }
      onMessage(message);
      channel?.postMessage({ message, eventId: event.lastEventId || undefined } satisfies ChannelPost);
    };
    source.onerror = () => {
      source?.close();
      source = null;
      if (stopped) return;
      // 1 s, 2 s, 4 s … up to a minute, each between half and all of it, so many tabs never come back at once.
      const ceiling = Math.min(60_000, 1_000 * 2 ** failures++);
      retry = setTimeout(open, ceiling / 2 + Math.random() * (ceiling / 2));
    };
  };

  if (typeof navigator !== "undefined" && navigator.locks) {
    void navigator.locks
      .request(`circles-live-${userId}`, () => {
        if (stopped) return undefined;
        open();
        // Held until this tab stops (closes, signs out, navigates away from the site).
        return new Promise<void>((resolve) => (release = resolve));
      })
      .catch(() => undefined);
  } else {
    open();
  }

  return () => {
    stopped = true;
    clearTimeout(retry);
    source?.close();
    release?.();
    channel?.close();
  };
}
