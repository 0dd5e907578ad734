import { randomBytes } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import { and, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { stop } from "./global-setup.ts";
import {
  crashStoreKinds,
  prepareCrashStore,
  releaseKilledLock,
  startCrashServer,
  type CrashStore,
  openForSetup,
} from "../support/crash.ts";
import { createUser, createWriting } from "../support/factories.ts";
import { dailyStats, subjectViews, writings } from "../../server/db/schema/index.ts";
import { visitorKey } from "../../server/lib/visitor.ts";
import { run as runAdmin } from "../../scripts/admin.ts";

/**
 * kill -9 of the server in the middle of a burst of view beacons, then a restart on the same
 * database. Beacons are gathered in memory and written once a second (features/metrics/views.ts),
 * so a killed process may lose at most the last second it acknowledged; everything older is
 * counted, nothing is counted twice (a visitor's beacon after the restart is a repeat, not a second
 * view), the writing's stored count equals its raw views, and the daily rollups equal the raw
 * records (`npm run admin -- rollup-check`). On the embedded store on disk, and on PostgreSQL when
 * `TEST_DATABASE_URL` is set.
 */
const sessionSecret = "views-crash-session-secret";
/** Visitors in the first burst, how many beacons are in flight at once, and after how many acknowledgements the server dies. */
const visitors = 300;
const inFlight = 12;
const killAfterAcknowledged = 150;
/** Each worker's pause between beacons: the first burst spans about three seconds, three of the buffer's intervals. */
const pauseMs = 250;
/** Beacons acknowledged this long before the kill must have been written (the buffer writes every second). */
const flushedAfterMs = 2_000;

interface Beacon {
  cookie: string;
  /** When a 200 answered it before the kill. */
  acknowledgedAt?: number;
}

const beacon = (baseURL: string, writingId: number, cookie: string) =>
  fetch(`${baseURL}/api/views/writing/${writingId}/view.gif`, {
    headers: { cookie: `vid=${cookie}`, "user-agent": "Mozilla/5.0 Chrome/156" },
  });

describe.each(crashStoreKinds)("kill -9 during a burst of view beacons, on the %s store", (kind) => {
  let store: CrashStore | undefined;
  const servers: ChildProcess[] = [];
  afterAll(async () => {
    for (const server of servers) await stop(server);
    await store?.dispose();
  });

  it(
    "loses at most the last second, counts nothing twice, and keeps the stored count and rollups equal to the raw views",
    { timeout: 400_000 },
    async () => {
      store = await prepareCrashStore(kind);
      const setup = await openForSetup(store);
      const author = await createUser(setup.db);
      const writing = await createWriting(setup.db, author);
      await setup.close();

      const first = await startCrashServer(store, { SESSION_SECRET: sessionSecret });
      servers.push(first.server);
      const beacons: Beacon[] = Array.from({ length: visitors }, () => ({ cookie: randomBytes(18).toString("base64url") }));
      const exited = new Promise<void>((resolve) => first.server.once("exit", () => resolve()));
      let acknowledged = 0;
      let killedAt = 0;
      let next = 0;
      const worker = async () => {
        while (next < beacons.length && killedAt === 0) {
          const sent = beacons[(next += 1) - 1]!;
          try {
            const answer = await beacon(first.baseURL, writing.id, sent.cookie);
            if (answer.ok && killedAt === 0) {
              sent.acknowledgedAt = Date.now();
              acknowledged += 1;
              if (acknowledged === killAfterAcknowledged) {
                killedAt = Date.now();
                first.server.kill("SIGKILL");
              }
            }
          } catch {
            // The connection died with the server: not acknowledged.
          }
          await new Promise((resolve) => setTimeout(resolve, pauseMs));
        }
      };
      // Beacons go out over more than the buffer's interval, so some were written before the kill.
      await Promise.all(
        Array.from({ length: inFlight }, async (_, index) => {
          await new Promise((resolve) => setTimeout(resolve, (index * pauseMs) / inFlight));
          await worker();
        }),
      );
      await exited;
      expect(first.server.signalCode).toBe("SIGKILL");

      releaseKilledLock(store);
      const second = await startCrashServer(store, { SESSION_SECRET: sessionSecret });
      servers.push(second.server);
      // Every visitor's beacon again (the first burst's visitors are repeats now when they were counted), then a clean stop writes the buffer.
      for (let index = 0; index < beacons.length; index += inFlight)
        await Promise.all(beacons.slice(index, index + inFlight).map((sent) => beacon(second.baseURL, writing.id, sent.cookie)));
      await stop(second.server);

      expect(
        await runAdmin(["rollup-check"], { ...process.env, DATA_DIR: store.dataDir, SESSION_SECRET: sessionSecret, ...store.env }),
      ).toBe(0);
      const database = await store.open();
      try {
        const rows = await database.db
          .select({ visitor: subjectViews.visitor, hits: subjectViews.hits, bot: subjectViews.bot })
          .from(subjectViews)
          .where(and(eq(subjectViews.subjectType, "writing"), eq(subjectViews.subjectId, writing.id)));
        const counted = new Set(rows.filter((row) => !row.bot).map((row) => row.visitor));
        // One view per visitor and day: every visitor once, none twice.
        expect(rows).toHaveLength(visitors);
        expect(counted.size).toBe(visitors);
        for (const sent of beacons) expect(counted.has(visitorKey(null, sent.cookie)!)).toBe(true);
        // What was acknowledged well before the kill had been written then: its visitor's second beacon is a repeat.
        const written = beacons.filter((sent) => sent.acknowledgedAt !== undefined && sent.acknowledgedAt < killedAt - flushedAfterMs);
        expect(written.length).toBeGreaterThan(10);
        const hits = new Map(rows.map((row) => [row.visitor, row.hits]));
        for (const sent of written)
          expect(hits.get(visitorKey(null, sent.cookie)!), "a beacon acknowledged before the last second").toBe(2);
        // The stored count and the rollup say the same as the raw rows.
        const [stored] = await database.db.select({ views: writings.views }).from(writings).where(eq(writings.id, writing.id));
        expect(stored!.views).toBe(visitors);
        const days = await database.db
          .select({ views: dailyStats.views })
          .from(dailyStats)
          .where(and(eq(dailyStats.subjectType, "writing"), eq(dailyStats.subjectId, writing.id)));
        expect(days.reduce((sum, day) => sum + day.views, 0)).toBe(visitors);
      } finally {
        await database.close();
      }
    },
  );
});
