import { randomUUID } from "node:crypto";
import fp from "fastify-plugin";
import { sql } from "drizzle-orm";
import type { DatabaseHandle } from "../db/client.ts";
import { evictLocally, invalidationChannel as channel, setInvalidationBroadcast } from "../lib/invalidation.ts";

/**
 * With a PostgreSQL server several processes may serve the site: an invalidation in one reaches
 * the others by NOTIFY on `circles_invalidate` (payload: this process's id and the tags). The
 * embedded store is one process, so nothing is needed there.
 */
export const invalidationChannel = fp<{ database: DatabaseHandle }>(async (app, { database }) => {
  if (!database.listen) return;
  const origin = randomUUID();
  const stopListening = await database.listen(channel, (payload) => {
    try {
      const message = JSON.parse(payload) as { origin?: string; tags?: unknown };
      if (message.origin === origin || !Array.isArray(message.tags)) return;
      evictLocally(message.tags.filter((tag): tag is string => typeof tag === "string"));
    } catch {
      // Not ours: ignore.
    }
  });
  const uninstall = setInvalidationBroadcast(async (tags) => {
    await database.db.execute(sql`select pg_notify(${channel}, ${JSON.stringify({ origin, tags })})`);
  });
  app.addHook("onClose", async () => {
    uninstall();
    await stopListening();
  });
});
