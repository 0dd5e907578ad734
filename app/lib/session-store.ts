import { createContext, useContext, useSyncExternalStore } from "react";
import type { $Fetch } from "ofetch";
import { anonymousUser, authSuccessCode, type CurrentUser } from "../../features/accounts/presenter.ts";
import { readCategories, zeroUnread, type ReadCategory, type UnreadCounts } from "../../features/messages/schema.ts";
import { failedStatus, loadHttp } from "./load-http.ts";

/** What the browser holds about the viewer (spec section 3), kept fresh from the auth and unread calls. */
export interface SessionState {
  user: CurrentUser;
  unread: UnreadCounts;
  /**
   * The version of each counter held (features/messages/service.ts, getUnreadSnapshot): counters
   * arrive from the stream, the other tabs, the page's loader and the unread call in any order,
   * and an older snapshot never replaces a newer one.
   */
  unreadVersions: Partial<Record<keyof UnreadCounts, number>>;
  /** Set after a 403 on the auth or unread call: no further attempts are made. */
  stopped: boolean;
  /** The newest answer, reply, mention or private message that arrived live, shown as a toast until dismissed. */
  toast?: LiveToast | null;
}

export interface LiveToast {
  id: number;
  category: string;
  actor: string;
  title: string;
  url: string;
}

/** What the live stream carries (features/messages/stream.ts). */
export type StreamMessage = { sse_type: string; [key: string]: unknown };

/** What the tabs of one user say on their BroadcastChannel (`circles-live-<user>`, app/lib/live-stream.ts). */
export interface ChannelPost {
  message: StreamMessage;
  /** The stream's position after this message, when it came from the stream with an id. */
  eventId?: string;
}

/** The response header with the counters' version (features/messages/service.ts). */
const unreadVersionHeader = "x-unread-version";

function versionsOf(counts: Partial<UnreadCounts>, version = 0): Partial<Record<keyof UnreadCounts, number>> {
  return Object.fromEntries(Object.keys(counts).map((name) => [name, version]));
}

function versionOf(value: unknown): number | undefined {
  const version = typeof value === "string" && value !== "" ? Number(value) : value;
  return typeof version === "number" && Number.isSafeInteger(version) && version >= 0 ? version : undefined;
}

/** Lines worth interrupting the reader for. */
const toastCategories = new Set(["answers", "reply", "at", "comment"]);

type Listener = () => void;

export function createSessionStore(
  initial: { user: CurrentUser | null; unread: UnreadCounts | null; unreadVersion?: number },
  loadFetcher: () => Promise<$Fetch> = loadHttp,
) {
  let state: SessionState = {
    user: initial.user ?? anonymousUser,
    unread: initial.unread ?? { ...zeroUnread },
    unreadVersions: versionsOf(initial.unread ?? {}, initial.unreadVersion),
    stopped: false,
  };
  const listeners = new Set<Listener>();
  const liveListeners = new Set<(message: StreamMessage) => void>();
  const set = (next: Partial<SessionState>) => {
    state = { ...state, ...next };
    for (const listener of listeners) listener();
  };
  /** Counters from anywhere: applied unless they are older than those held (a version below the tab's). */
  const applyCounters = (counts: Partial<UnreadCounts>, version: number | undefined) => {
    const unread = { ...state.unread };
    const unreadVersions = { ...state.unreadVersions };
    let changed = false;
    for (const [name, value] of Object.entries(counts) as [keyof UnreadCounts, number][]) {
      const held = unreadVersions[name] ?? 0;
      if (version !== undefined && version < held) continue;
      unread[name] = value;
      unreadVersions[name] = Math.max(version ?? 0, held);
      changed = true;
    }
    if (changed) set({ unread, unreadVersions });
  };
  const fail = (error: unknown) => {
    // Any auth error resets the user data to defaults; a 403 also stops further attempts.
    const status = failedStatus(error);
    set({ user: anonymousUser, unread: { ...zeroUnread }, unreadVersions: {}, stopped: state.stopped || status === 403 });
  };
  return {
    get: () => state,
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Seeds the store from server-rendered data (counters older than the tab's are kept out). */
    hydrate(user: CurrentUser | null, unread: UnreadCounts | null, unreadVersion = 0) {
      if (!user || !unread) return set({ user: anonymousUser, unread: { ...zeroUnread }, unreadVersions: {} });
      set({ user });
      applyCounters(unread, unreadVersion);
    },
    async refreshAuth(): Promise<void> {
      if (state.stopped) return;
      try {
        const answer = await (await loadFetcher())<{ code: number } & CurrentUser>("/api/Users/LoginAuth/");
        if (answer.code === authSuccessCode) {
          const { code: _code, ...user } = answer;
          set({ user });
        } else set({ user: anonymousUser, unread: { ...zeroUnread }, unreadVersions: {} });
      } catch (error) {
        fail(error);
      }
    },
    async refreshUnread(): Promise<void> {
      if (state.stopped || state.user.user_id === 0) return;
      try {
        const response = await (await loadFetcher()).raw<UnreadCounts>("/api/Users/get_unread");
        if (response._data) applyCounters(response._data, versionOf(response.headers.get(unreadVersionHeader)));
      } catch (error) {
        fail(error);
      }
    },
    /** Pages that follow the stream themselves (a chat thread): every message, until unsubscribed. */
    onLive(listener: (message: StreamMessage) => void): () => void {
      liveListeners.add(listener);
      return () => liveListeners.delete(listener);
    },
    /** A message from the live stream: counters replace the old ones; answers, replies, mentions and private messages become a toast. */
    applyLive(message: StreamMessage): void {
      for (const listener of liveListeners) listener(message);
      if (message.sse_type === "unread" && message.unread && typeof message.unread === "object") {
        applyCounters(message.unread as Partial<UnreadCounts>, versionOf(message.version));
      } else if (message.sse_type === "subscription" && typeof message.unread_follow_count === "number") {
        applyCounters({ unread_follow_count: message.unread_follow_count }, versionOf(message.version));
      } else if (message.sse_type === "chat") {
        const chat = message.message as { id: number; mine: boolean; text: string; image_url: string | null } | undefined;
        const peer = typeof message.peer === "string" ? message.peer : "";
        // A private message to the user is a toast, except on its own open thread (which shows it).
        const onThread = typeof location !== "undefined" && decodeURIComponent(location.pathname).endsWith(`/messages/chat/${peer}`);
        if (chat && !chat.mine && peer && !onThread) {
          set({
            toast: {
              id: -chat.id,
              category: "chat",
              actor: peer,
              title: chat.text ? (chat.text.length > 40 ? `${chat.text.slice(0, 40)}…` : chat.text) : "",
              url: `/messages/chat/${peer}`,
            },
          });
        }
      } else if (message.sse_type === "notification") {
        const line = message.notification as
          { id: number; category: string; actors: { nickname: string }[]; subject: { title: string; url: string } } | undefined;
        if (line && toastCategories.has(line.category)) {
          set({
            toast: {
              id: line.id,
              category: line.category,
              actor: line.actors[0]?.nickname ?? "",
              title: line.subject.title,
              url: `/messages/open/${line.id}`,
            },
          });
        }
      }
    },
    dismissToast(): void {
      set({ toast: null });
    },
    /** Marks a message category read; succeeds on 204 and zeroes its counters, here and in the other tabs, at the read's version. */
    async markRead(category: ReadCategory): Promise<boolean> {
      const response = await (await loadFetcher()).raw(`/api/Users/read_meg/${category}/`, { method: "PATCH", body: {} });
      if (response.status !== 204) return false;
      const zeroed: Partial<UnreadCounts> = {};
      for (const counter of readCategories[category]) zeroed[counter] = 0;
      // The read's version: a snapshot read before it committed (a push on its way, a loader's) no
      // longer brings the old counts back, in this tab or another.
      const message = { sse_type: "unread", unread: zeroed, version: versionOf(response.headers.get(unreadVersionHeader)) };
      applyCounters(zeroed, message.version);
      // The other open tabs hear it at once, as they hear the stream (the stream's own push follows).
      if (typeof BroadcastChannel === "function" && state.user.user_id !== 0) {
        const channel = new BroadcastChannel(`circles-live-${state.user.user_id}`);
        channel.postMessage({ message } satisfies ChannelPost);
        channel.close();
      }
      return true;
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;

/** One store per rendered app (per request on the server), provided by the root route. */
export const SessionContext = createContext<SessionStore | null>(null);

export function useSessionStore(): SessionStore {
  const store = useContext(SessionContext);
  if (!store) throw new Error("useSessionStore outside SessionContext");
  return store;
}

export function useSession(): SessionState {
  const store = useSessionStore();
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
