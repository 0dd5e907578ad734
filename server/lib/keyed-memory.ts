import { PgTransaction } from "drizzle-orm/pg-core";
import type { Executor } from "../db/client.ts";
import { onInvalidate, onResync } from "./invalidation.ts";
import { countInstance } from "./single-instance.ts";

export interface KeyedMemory<Value> {
  /** The remembered value of `key`, or `load()`'s (remembered). Inside a transaction always `load()`. */
  read(db: Executor, key: number, load: () => Promise<Value>): Promise<Value>;
  /** The tag whose invalidation drops `key` (writes put it on `tx.invalidate` or call `invalidate`). */
  tag(key: number): string;
}

/**
 * A small per-user read (memberships, unread counters) remembered per database handle, for pages
 * that read it on every request. Every write of what it holds invalidates `tag(key)` after commit
 * (locally and, with a PostgreSQL server, in every process by NOTIFY), which drops the key; the
 * next read loads it again. `ttlMs` bounds how long a value lives even so, and at `maxEntries`
 * keys the memory starts over. Reads inside a transaction always go to the database, so a use
 * case sees its own uncommitted writes.
 */
export function keyedMemory<Value>(name: string, options: { ttlMs: number; maxEntries: number }): KeyedMemory<Value> {
  countInstance(`memory/${name}`);
  const prefix = `${name}:`;
  const memories = new WeakMap<Executor, Map<number, { value: Promise<Value>; until: number }>>();
  // The live maps, so an invalidation can reach every database handle's copy (a handful: one per open database).
  const live = new Set<Map<number, { value: Promise<Value>; until: number }>>();

  onInvalidate((tags) => {
    for (const tag of tags) {
      if (!tag.startsWith(prefix)) continue;
      const key = Number(tag.slice(prefix.length));
      for (const memory of live) memory.delete(key);
    }
  });
  onResync(() => {
    for (const memory of live) memory.clear();
  });

  return {
    tag: (key) => `${prefix}${key}`,
    read(db, key, load) {
      if (db instanceof PgTransaction) return load();
      let memory = memories.get(db);
      if (!memory) {
        memory = new Map();
        memories.set(db, memory);
        live.add(memory);
      }
      const now = Date.now();
      const known = memory.get(key);
      if (known && known.until > now) return known.value;
      if (memory.size >= options.maxEntries) memory.clear();
      const value = load();
      const entry = { value, until: now + options.ttlMs };
      memory.set(key, entry);
      // A failed read is not remembered: the next call tries again.
      value.catch(() => {
        if (memory.get(key) === entry) memory.delete(key);
      });
      return value;
    },
  };
}
