import { randomUUID } from "node:crypto";
import fp from "fastify-plugin";
import { sql } from "drizzle-orm";
import type { DatabaseHandle } from "../db/client.ts";
import { evictLocally, invalidationChannel as channel, resyncLocally, setInvalidationBroadcast } from "../lib/invalidation.ts";
import { invalidationPayloads } from "../lib/invalidation-payloads.ts";

/**
 * With a PostgreSQL server several processes may serve the site: an invalidation in one reaches
 * the others by NOTIFY on `circles_invalidate` (payload: this process's id and the tags, split
 * into payloads under PostgreSQL's 8,000-byte limit). The embedded store is one process, so
 * nothing is needed there. When the listening connection drops, it reconnects and this process
 * drops everything it remembers (pages, reads) and its live streams re-read from their last event
 * id: what was sent while it was away never arrives.
 */
export const invalidationChannel = fp<{ database: DatabaseHandle }>(async (app, { database }) => {
  if (!database.listen) return;
  const origin = randomUUID();
  const stopListening = await database.listen(
    channel,
    (payload) => {
      try {
        const message = JSON.parse(payload) as { origin?: string; tags?: unknown; resync?: unknown };
        if (message.origin === origin) return;
        if (message.resync === true) return resyncLocally();
        if (!Array.isArray(message.tags)) return;
        evictLocally(message.tags.filter((tag): tag is string => typeof tag === "string"));
      } catch {
        // Not ours: ignore.
      }
    },
    {
      onReconnect: () => {
        app.log.warn("invalidation channel reconnected: dropping remembered pages and reads");
        resyncLocally();
      },
    },
  );
  const uninstall = setInvalidationBroadcast(async (tags) => {
    for (const payload of invalidationPayloads(origin, tags)) await database.db.execute(sql`select pg_notify(${channel}, ${payload})`);
  });
  app.addHook("onClose", async () => {
    uninstall();
    await stopListening();
  });
});
