import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import { openServerDatabase } from "../db/client.ts";
import { createTestDatabase, type TestDatabase } from "../../tests/support/database.ts";
import { createSessionFor, createUser } from "../../tests/support/factories.ts";
import { invalidate, invalidationChannel, onInvalidate, onResync } from "../lib/invalidation.ts";
import { invalidationPayloads } from "../lib/invalidation-payloads.ts";

const config = () => loadConfig({ DATA_DIR: "/tmp", SESSION_SECRET: "test-secret", CAPTCHA: "off" });

/** Tags whose JSON alone is far over PostgreSQL's 8,000-byte NOTIFY limit. */
const manyTags = Array.from({ length: 1_500 }, (_, index) => `writing:${index}`);

describe("invalidation payloads", () => {
  it("splits a large invalidation into payloads under the NOTIFY limit, every tag once", () => {
    expect(JSON.stringify(manyTags).length).toBeGreaterThan(8_000);
    const payloads = invalidationPayloads("origin", manyTags);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThan(8_000);
    expect(payloads.flatMap((payload) => (JSON.parse(payload) as { tags: string[] }).tags)).toEqual(manyTags);
  });

  it("counts bytes, not characters (Chinese tags)", () => {
    const tags = Array.from({ length: 600 }, (_, index) => `search-words:entry:星空书院${index}`);
    for (const payload of invalidationPayloads("origin", tags)) expect(Buffer.byteLength(payload)).toBeLessThan(8_000);
  });

  it("turns a tag too long for any payload into a resync of every other process", () => {
    expect(invalidationPayloads("origin", ["home", "x".repeat(9_000)])).toEqual([JSON.stringify({ origin: "origin", resync: true })]);
  });
});

/**
 * With a PostgreSQL server, an invalidation in one process reaches the others. An app and a
 * second connection on one database stand in for two processes: a NOTIFY sent as the other
 * process would send it must reach this one's listeners, and the other hears this one's.
 */
describe.runIf(process.env.TEST_DATABASE_URL)("invalidation across processes (PostgreSQL)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
  });
  afterAll(() => database.dispose());

  /** Another process's NOTIFY, sent until this process hears it (a reconnecting listener may miss the first ones). */
  async function notifyUntilHeard(tag: string): Promise<void> {
    const other = await openServerDatabase(database.url!, 1);
    let heard = false;
    const stop = onInvalidate((tags) => {
      if (tags.includes(tag)) heard = true;
    });
    await expect
      .poll(async () => {
        if (!heard)
          await other.db.execute(
            sql`select pg_notify(${invalidationChannel}, ${JSON.stringify({ origin: "another-process", tags: [tag] })})`,
          );
        return heard;
      })
      .toBe(true);
    stop();
    await other.close();
  }

  it("delivers another process's invalidation to this process's caches", async () => {
    const app = await buildApp({ config: config(), database });
    await app.ready();
    const received = new Promise<string[]>((resolve) => {
      const stop = onInvalidate((tags) => {
        if (tags.includes("circle:42")) {
          stop();
          resolve(tags);
        }
      });
    });
    // Another process: its own connection, its own origin id.
    const other = await openServerDatabase(database.url!, 1);
    await other.db.execute(
      sql`select pg_notify(${invalidationChannel}, ${JSON.stringify({ origin: "another-process", tags: ["circle:42", "home"] })})`,
    );
    expect(await received).toEqual(["circle:42", "home"]);
    await other.close();
    await app.close();
  });

  it("sends an invalidation larger than a NOTIFY payload may be, and the other process hears every tag", async () => {
    const app = await buildApp({ config: config(), database });
    await app.ready();
    const other = await openServerDatabase(database.url!, 1);
    const heard = new Set<string>();
    const stop = await other.listen!(invalidationChannel, (payload) => {
      for (const tag of (JSON.parse(payload) as { tags?: string[] }).tags ?? []) heard.add(tag);
    });
    await invalidate(manyTags);
    await expect.poll(() => heard.size).toBe(manyTags.length);
    await stop();
    await other.close();
    await app.close();
  });

  it("survives a terminated listener: it reconnects, drops what it remembers, and its streams and caches hear the other process again", async () => {
    const app = await buildApp({ config: config(), database });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = app.server.address() as AddressInfo;
    const user = await createUser(database.db);
    const token = await createSessionFor(database.db, user);
    const unread: unknown[] = [];
    const request = http.get(
      `http://127.0.0.1:${port}/apiv2/sse?user_id=${user.id}`,
      { headers: { cookie: `sessionid=${token}` } },
      (response) => {
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          for (const line of chunk.split("\n")) if (line.startsWith("data: ") && line.includes(`"sse_type":"unread"`)) unread.push(line);
        });
      },
    );
    request.on("error", () => undefined);
    await expect.poll(() => unread.length).toBeGreaterThan(0);
    await notifyUntilHeard("circle:1");

    let resyncs = 0;
    const stopResync = onResync(() => (resyncs += 1));
    const before = unread.length;
    const listeners = sql`select pid from pg_stat_activity where datname = current_database() and query ilike 'listen%circles_invalidate%' and pid <> pg_backend_pid()`;
    const listenerPids = async () => ((await database.db.execute(listeners)) as unknown as { rows: { pid: number }[] }).rows;
    const [listener] = await listenerPids();
    expect(listener).toBeDefined();
    await database.db.execute(sql`select pg_terminate_backend(${listener!.pid})`);

    // Back: a new listening backend, everything remembered dropped, the stream re-read without any NOTIFY.
    await expect.poll(() => resyncs, { timeout: 15_000 }).toBe(1);
    const [again] = await listenerPids();
    expect(again?.pid).not.toBe(listener!.pid);
    await expect.poll(() => unread.length).toBeGreaterThan(before);
    // And the other process's writes reach this one again: its caches, and its user's stream.
    await notifyUntilHeard("circle:2");
    const afterReconnect = unread.length;
    await notifyUntilHeard(`unread:${user.id}`);
    await expect.poll(() => unread.length).toBeGreaterThan(afterReconnect);

    stopResync();
    request.destroy();
    await app.close();
  });
});
