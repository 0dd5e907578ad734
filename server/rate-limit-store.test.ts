import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { Socket } from "node:net";
import type { FastifyInstance } from "fastify";

import { createTestApi, type TestApi } from "../tests/support/api.ts";
import { databaseKinds } from "../tests/support/database.ts";
import { buildApp } from "./app.ts";
import { loadConfig } from "./config.ts";
import { openServerDatabase, type DatabaseHandle } from "./db/client.ts";
import { deleteEndedRateLimitWindows } from "./rate-limit-store.ts";
import { sql } from "drizzle-orm";

/** Three puzzles a minute per address, so the fourth draw on any process is refused. */
const limitedEnv = { CAPTCHA_PER_MINUTE: "3" };

async function drawPuzzles(apps: FastifyInstance[], address: string): Promise<number[]> {
  const statuses: number[] = [];
  for (const app of apps) {
    const response = await app.inject({ method: "GET", url: "/api/captcha/", remoteAddress: address });
    statuses.push(response.statusCode);
  }
  return statuses;
}

describe.each(databaseKinds)("route rate limits shared by every process (%s)", (kind) => {
  let api: TestApi;
  let second: FastifyInstance;
  let secondDatabase: DatabaseHandle | undefined;

  beforeAll(async () => {
    api = await createTestApi(kind, { env: limitedEnv });
    // A second server on the same store: on PostgreSQL its own connection pool, as another process has.
    secondDatabase = api.database.url ? await openServerDatabase(api.database.url, 2) : undefined;
    second = await buildApp({
      config: loadConfig({ DATA_DIR: api.dataDir, SESSION_SECRET: "test-secret", CAPTCHA: "off", ...limitedEnv }),
      database: secondDatabase ?? api.database,
    });
    await second.ready();
  });

  afterAll(async () => {
    await second.close();
    await secondDatabase?.close();
    await api.close();
  });

  it("counts one client's requests to both processes against one limit", async () => {
    const statuses = await drawPuzzles([api.app, second, api.app, second], "203.0.113.7");
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Another address has its own allowance, on either process.
    expect(await drawPuzzles([second], "203.0.113.8")).toEqual([200]);
  });

  it("starts a new window when the old one has ended, and the sweep drops ended windows", async () => {
    await api.database.db.execute(sql`update rate_limit_counters set resets_at = now() - interval '2 hours'`);
    expect(await drawPuzzles([second, api.app], "203.0.113.7")).toEqual([200, 200]);
    await api.database.db.execute(sql`update rate_limit_counters set resets_at = now() - interval '2 hours' where key like '%203.0.113.8'`);
    await deleteEndedRateLimitWindows(api.database.db);
    const left = await api.database.db.execute(sql`select key, hits from rate_limit_counters order by key`);
    const rows = (left as unknown as { rows: { key: string; hits: number }[] }).rows;
    expect(rows.map((row) => [row.key.endsWith("203.0.113.7"), Number(row.hits)])).toEqual([[true, 2]]);
  });
});

/** Whether Redis answers at 127.0.0.1:6379 (it runs on these machines and in CI). */
async function redisAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(500);
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => (socket.destroy(), resolve(false)));
    socket.connect(6379, "127.0.0.1");
  });
}

describe.runIf(await redisAnswers())("route rate limits in Redis (REDIS_URL)", () => {
  let api: TestApi;
  let second: FastifyInstance;
  const redisUrl = "redis://127.0.0.1:6379";

  beforeAll(async () => {
    // Each run's keys are fresh: the limit counts per address, and this run's address is its own.
    api = await createTestApi(databaseKinds[0]!, { env: { ...limitedEnv, REDIS_URL: redisUrl } });
    second = await buildApp({
      config: loadConfig({ DATA_DIR: api.dataDir, SESSION_SECRET: "test-secret", CAPTCHA: "off", REDIS_URL: redisUrl, ...limitedEnv }),
      database: api.database,
    });
    await second.ready();
  });

  afterAll(async () => {
    await second.close();
    await api.close();
  });

  it("counts one client's requests to both processes against one limit, and nothing in the database", async () => {
    const address = `198.51.100.${1 + Math.floor(Math.random() * 250)}`;
    const redis = new Redis(redisUrl);
    try {
      const keys = await redis.keys(`circles-rate-limit-*${address}`);
      if (keys.length > 0) await redis.del(...keys);
      // The clients connect as the apps start; wait until both answer.
      await expect.poll(async () => (await api.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
      const statuses = await drawPuzzles([api.app, second, api.app, second], address);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect((await redis.keys(`circles-rate-limit-*${address}`)).length).toBe(1);
      const rows = await api.database.db.execute(sql`select count(*)::int as n from rate_limit_counters`);
      expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
    } finally {
      await redis.quit();
    }
  });
});
