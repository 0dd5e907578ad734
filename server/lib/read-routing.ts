import pg from "pg";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import * as schema from "../db/schema/index.ts";
import type { Database } from "../db/client.ts";
import { onInvalidate, onResync } from "./invalidation.ts";

/**
 * Reads that tolerate a short lag (anonymous pages, search, rankings, feeds) may go to a
 * PostgreSQL streaming replica (`DATABASE_REPLICA_URL`). Two rules keep anyone from seeing the past:
 *
 * - **Your own writes.** Every successful write by a signed-in user answers with a cookie holding the
 *   primary's WAL position after it (`circles_lsn`); that user's reads go to the replica only once it
 *   has replayed that far (`pg_last_wal_replay_lsn()`), so nobody misses their own post.
 * - **What this process remembers.** Remembered reads and cached pages are refilled after an
 *   invalidation: from then on the replica is used only once it has replayed past the primary's
 *   position when this process learnt of the write, so a stale copy is never remembered.
 *
 * The replica's position is asked at most every `pollMs` (one query shared by concurrent reads);
 * a replica that cannot answer sends every read to the primary. A "replica" that is not in recovery
 * (the same server, as in the tests) counts as caught up.
 */
export interface ReadRouting {
  /** The database for a read that tolerates lag, given the position this reader must see. */
  forRead(mustSee?: string): Promise<Database>;
  /** The primary's current WAL position (after a write). */
  primaryPosition(): Promise<string>;
  /** How many reads went where (for the benchmark and the tests). */
  readonly counts: { replica: number; primary: number };
  close(): Promise<void>;
}

/** The cookie carrying the WAL position a signed-in user's own last write reached. */
export const positionCookieName = "circles_lsn";
/** How long the cookie matters: a replica further behind than this is far too late anyway. */
export const positionCookieSeconds = 300;

/** `16/B374D848` → a comparable number; anything else → null. */
export function parsePosition(value: string | null | undefined): bigint | null {
  if (!value) return null;
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(value.trim());
  if (!match) return null;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/**
 * Whether the replica may serve a read: it is not a standby (`caught-up`), or it has replayed past
 * both the reader's own last write and what this process was told changed (`known`; negative while
 * the primary could not say).
 */
export function replicaMayServe(replayed: bigint | "caught-up" | null, known: bigint, own: bigint | null): boolean {
  if (replayed === "caught-up") return true;
  if (replayed === null || known < 0n) return false;
  return replayed >= known && replayed >= (own ?? 0n);
}

export function createReadRouting(
  primary: Database,
  replicaUrl: string,
  options: { pollMs?: number; poolSize?: number } = {},
): ReadRouting {
  const pollMs = options.pollMs ?? 20;
  const pool = new pg.Pool({ connectionString: replicaUrl, max: options.poolSize ?? 10 });
  pool.on("error", () => {});
  const replica = drizzle({ client: pool, schema }) as unknown as Database;
  const counts = { replica: 0, primary: 0 };

  // The replica's replayed position: null while unknown or unreachable; Infinity-like when not a standby.
  let replayed: { at: number; position: bigint | "caught-up" | null } | undefined;
  let asking: Promise<bigint | "caught-up" | null> | undefined;
  async function replicaPosition(): Promise<bigint | "caught-up" | null> {
    if (replayed && Date.now() - replayed.at < pollMs) return replayed.position;
    asking ??= pool
      .query<{ replaying: boolean; position: string | null }>(
        "select pg_is_in_recovery() as replaying, pg_last_wal_replay_lsn()::text as position",
      )
      .then(
        ({ rows }) => (rows[0]?.replaying ? parsePosition(rows[0].position) : "caught-up"),
        () => null,
      )
      .then((position) => {
        replayed = { at: Date.now(), position };
        asking = undefined;
        return position;
      });
    return asking;
  }

  async function primaryPosition(): Promise<string> {
    const result = await primary.execute<{ position: string }>(sql`select pg_current_wal_lsn()::text as position`);
    return (result as unknown as { rows: { position: string }[] }).rows[0]!.position;
  }

  // What this process has been told changed: the replica must have replayed past the primary's
  // position at (or after) that moment before a remembered read may be refilled from it.
  let invalidated = false;
  let floor: bigint = 0n;
  let fetchingFloor: Promise<void> | undefined;
  const stopInvalidate = onInvalidate(() => {
    invalidated = true;
  });
  const stopResync = onResync(() => {
    invalidated = true;
  });
  async function currentFloor(): Promise<bigint> {
    if (invalidated) {
      fetchingFloor ??= (async () => {
        invalidated = false;
        try {
          const position = parsePosition(await primaryPosition());
          if (position !== null && position > floor) floor = position;
        } catch {
          // The primary could not say: keep asking on the next read.
          invalidated = true;
        } finally {
          fetchingFloor = undefined;
        }
      })();
      await fetchingFloor;
      if (invalidated) return -1n;
    }
    return floor;
  }

  return {
    counts,
    primaryPosition,
    async forRead(mustSee) {
      const [position, known] = await Promise.all([replicaPosition(), currentFloor()]);
      if (replicaMayServe(position, known, parsePosition(mustSee))) {
        counts.replica += 1;
        return replica;
      }
      counts.primary += 1;
      return primary;
    },
    async close() {
      stopInvalidate();
      stopResync();
      await pool.end();
    },
  };
}
