import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import { sql } from "drizzle-orm";
import { Redis } from "ioredis";

import type { Database } from "./db/client.ts";

/**
 * Where route rate limits (`config.rateLimit` on a route, @fastify/rate-limit) count, so that N
 * processes allow a client the limit once, not N times: Redis when REDIS_URL is set (the plugin's
 * own Lua store), otherwise the database's `rate_limit_counters` table, which every process on one
 * PostgreSQL server shares (and the embedded store's single process uses alike).
 */
export type RateLimitBackend = { kind: "redis"; redis: Redis } | { kind: "postgres"; store: FastifyRateLimitStoreCtor };

interface StoreResult {
  current: number;
  ttl: number;
}
type StoreCallback = (error: Error | null, result?: StoreResult) => void;

/** What the plugin hands `child` at run time: the route's merged limit options with the route (its types name the route options). */
interface RouteParams {
  routeInfo?: { method?: string | string[]; url?: string };
}

/**
 * One statement per counted request: a new key or a window that has passed starts at 1, otherwise
 * the hit is added. Concurrent requests on any process serialise on the key's row.
 */
async function countHit(db: Database, key: string, windowMs: number): Promise<StoreResult> {
  const result = await db.execute(sql`
    insert into rate_limit_counters as counter (key, hits, resets_at)
    values (${key}, 1, now() + ${windowMs} * interval '1 millisecond')
    on conflict (key) do update set
      hits = case when counter.resets_at <= now() then 1 else counter.hits + 1 end,
      resets_at = case when counter.resets_at <= now() then now() + ${windowMs} * interval '1 millisecond' else counter.resets_at end
    returning hits, greatest(0, ceil(extract(epoch from (resets_at - now())) * 1000))::bigint as ttl`);
  const row = (result as unknown as { rows: { hits: number; ttl: string }[] }).rows[0]!;
  return { current: Number(row.hits), ttl: Number(row.ttl) };
}

async function readHits(db: Database, key: string): Promise<StoreResult> {
  const result = await db.execute(sql`
    select hits, ceil(extract(epoch from (resets_at - now())) * 1000)::bigint as ttl
    from rate_limit_counters where key = ${key} and resets_at > now()`);
  const row = (result as unknown as { rows: { hits: number; ttl: string }[] }).rows[0];
  return row ? { current: Number(row.hits), ttl: Number(row.ttl) } : { current: 0, ttl: 0 };
}

/** A store class bound to one database, each route's counters under its own key prefix. */
export function postgresRateLimitStore(db: Database): FastifyRateLimitStoreCtor {
  return class PostgresRateLimitStore implements FastifyRateLimitStore {
    private readonly prefix: string;
    constructor(_options: unknown, prefix = "") {
      this.prefix = prefix;
    }

    incr(key: string, callback: StoreCallback, timeWindow: number): void {
      countHit(db, this.prefix + key, timeWindow).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    read(key: string, callback: StoreCallback): void {
      readHits(db, this.prefix + key).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(options: object): FastifyRateLimitStore {
      const { routeInfo } = options as RouteParams;
      const method = [routeInfo?.method ?? ""].flat().join(",");
      return new PostgresRateLimitStore(options, `${method} ${routeInfo?.url ?? ""} `);
    }
  };
}

/** Windows that ended over an hour ago (the hourly maintenance job). */
export async function deleteEndedRateLimitWindows(db: Database): Promise<void> {
  await db.execute(sql`delete from rate_limit_counters where resets_at < now() - interval '1 hour'`);
}

/**
 * Redis when a URL is given, the database otherwise. The Redis client fails a command at once while
 * the server is unreachable instead of queueing it, so a request is never held by the limiter; the
 * caller connects it (`redis.connect()`) before serving.
 */
export function rateLimitBackend(db: Database, redisUrl: string | undefined): RateLimitBackend {
  if (redisUrl) {
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000, lazyConnect: true });
    // Errors reach the limiter's callers; the client reconnects by itself.
    redis.on("error", () => {});
    return { kind: "redis", redis };
  }
  return { kind: "postgres", store: postgresRateLimitStore(db) };
}
