import { countInstance } from "./single-instance.ts";

/**
 * Cache invalidation by tag. Pages record tags when rendered (`circle:7`, `home`, `sitemap`);
 * a committed write calls `invalidate(tags)` (through `tx.invalidate`) and every page cache in
 * every process drops the pages carrying them. Across processes the message travels by
 * PostgreSQL NOTIFY (see `connectInvalidationChannel`); the embedded store is one process.
 */
countInstance("server/invalidation");

type Listener = (tags: string[]) => void;
const listeners = new Set<Listener>();
const resyncListeners = new Set<() => void>();
let broadcast: ((tags: string[]) => Promise<void>) | undefined;

export const invalidationChannel = "circles_invalidate";

/** Called with the tags of every invalidation (local or from another process). Returns an unsubscribe. */
export function onInvalidate(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function evictLocally(tags: string[]): void {
  for (const listener of listeners) listener(tags);
}

/**
 * Called when invalidations may have been missed (the channel's connection dropped and came
 * back): whatever the listener remembers must be read again. Returns an unsubscribe.
 */
export function onResync(listener: () => void): () => void {
  resyncListeners.add(listener);
  return () => resyncListeners.delete(listener);
}

/** Every remembered read and cached page is dropped; live streams re-read from their last event id. */
export function resyncLocally(): void {
  for (const listener of resyncListeners) listener();
}

export async function invalidate(tags: string[]): Promise<void> {
  if (tags.length === 0) return;
  evictLocally(tags);
  await broadcast?.(tags);
}

/** Installs the cross-process sender (server database only). Returns an uninstall. */
export function setInvalidationBroadcast(sender: (tags: string[]) => Promise<void>): () => void {
  broadcast = sender;
  return () => {
    if (broadcast === sender) broadcast = undefined;
  };
}
