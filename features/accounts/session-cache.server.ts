import type { Viewer } from "./viewer.ts";
import { countInstance } from "../../server/lib/single-instance.ts";

/**
 * A very short-lived in-process memory of session lookups: a signed-in page view or API call then
 * costs no query. Logout in this process forgets the entry at once; another process (when several
 * run against one PostgreSQL server) may accept a revoked session for at most `ttlMs`.
 */
export const sessionCacheTtlMs = 2_000;
const maxEntries = 10_000;

interface Entry {
  viewer: Viewer;
  until: number;
  /** The whole users row, once `LoginAuth` asked for it. */
  user?: unknown;
}

countInstance("accounts/session-cache");
const cache = new Map<string, Entry>();

/** The entry of a session still within its moment; a lapsed one is dropped. */
function liveEntry(tokenHash: string, now: number): Entry | undefined {
  const entry = cache.get(tokenHash);
  if (!entry) return undefined;
  if (entry.until <= now) {
    cache.delete(tokenHash);
    return undefined;
  }
  return entry;
}

export function cachedSessionViewer(tokenHash: string, now = Date.now()): Viewer | undefined {
  return liveEntry(tokenHash, now)?.viewer;
}

export function rememberSessionViewer(tokenHash: string, viewer: Viewer, now = Date.now()): void {
  if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
  cache.set(tokenHash, { viewer, until: now + sessionCacheTtlMs });
}

export function forgetSession(tokenHash: string): void {
  cache.delete(tokenHash);
}

/**
 * After a user's sessions are revoked or any of their fields change (profile, type, avatar,
 * balances): their session lookups, and the users rows remembered with them, are forgotten.
 */
export function forgetSessionsOf(userId: number): void {
  for (const [key, entry] of cache) if (entry.viewer.id === userId) cache.delete(key);
}

/**
 * The signed-in user's own row, remembered beside the session lookup for
 * `GET /api/Users/LoginAuth/` (asked on every page a client opens). Every write to a users row
 * forgets it after commit (`forgetSessionsOf`); another process may answer a changed row for at
 * most `sessionCacheTtlMs`.
 */
export function cachedSessionUser<T>(tokenHash: string, now = Date.now()): T | undefined {
  return liveEntry(tokenHash, now)?.user as T | undefined;
}

export function rememberSessionUser(tokenHash: string, user: { id: number }): void {
  const entry = cache.get(tokenHash);
  if (entry && entry.viewer.id === user.id) entry.user = user;
}
