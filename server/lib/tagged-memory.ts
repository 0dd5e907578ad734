import { PgTransaction } from "drizzle-orm/pg-core";
import type { Executor } from "../db/client.ts";
import { onInvalidate, onResync } from "./invalidation.ts";
import { countInstance } from "./single-instance.ts";

export interface TaggedMemory<Value> {
  /**
   * The remembered value of `key`, or the one `load()` reads, remembered under the cache tags it
   * names. Inside a transaction always `load()`.
   */
  read(db: Executor, key: number, load: () => Promise<{ value: Value; tags: string[] }>): Promise<Value>;
}

interface Entry<Value> {
  value: Value;
  until: number;
  tags: string[];
}

interface Store<Value> {
  entries: Map<number, Entry<Value>>;
  byTag: Map<string, Set<number>>;
}

/**
 * Viewer-independent data of a page (a writing as its reading page shows it), remembered per
 * database handle under the same cache tags as the anonymous page cache: a write that changes
 * what such a page shows invalidates those tags after commit (locally and, with a PostgreSQL
 * server, in every process), which drops the entries carrying them. So a signed-in reader gets
 * what an anonymous one would, without its queries; like the page cache, an entry lives `ttlMs`
 * at most. A read whose load overlapped any invalidation is answered but not remembered, so a
 * value read before a commit never outlives it.
 */
export function taggedMemory<Value>(name: string, options: { ttlMs: number; maxEntries: number }): TaggedMemory<Value> {
  countInstance(`memory/${name}`);
  const stores = new WeakMap<Executor, Store<Value>>();
  const live = new Set<Store<Value>>();
  let epoch = 0;

  function drop(store: Store<Value>, key: number): void {
    const entry = store.entries.get(key);
    if (!entry) return;
    store.entries.delete(key);
    for (const tag of entry.tags) {
      const keys = store.byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) store.byTag.delete(tag);
    }
  }

  onInvalidate((tags) => {
    epoch += 1;
    for (const store of live) {
      for (const tag of tags) {
        const keys = store.byTag.get(tag);
        if (keys) for (const key of [...keys]) drop(store, key);
      }
    }
  });
  onResync(() => {
    epoch += 1;
    for (const store of live) {
      store.entries.clear();
      store.byTag.clear();
    }
  });

  return {
    async read(db, key, load) {
      if (db instanceof PgTransaction) return (await load()).value;
      let store = stores.get(db);
      if (!store) {
        store = { entries: new Map(), byTag: new Map() };
        stores.set(db, store);
        live.add(store);
      }
      const now = Date.now();
      const known = store.entries.get(key);
      if (known && known.until > now) return known.value;
      if (known) drop(store, key);
      const started = epoch;
      const { value, tags } = await load();
      if (epoch === started) {
        if (store.entries.size >= options.maxEntries) {
          store.entries.clear();
          store.byTag.clear();
        }
        store.entries.set(key, { value, until: now + options.ttlMs, tags });
        for (const tag of tags) {
          let keys = store.byTag.get(tag);
          if (!keys) store.byTag.set(tag, (keys = new Set()));
          keys.add(key);
        }
      }
      return value;
    },
  };
}
