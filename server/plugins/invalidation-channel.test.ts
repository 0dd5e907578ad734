import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import { openServerDatabase } from "../db/client.ts";
import { createTestDatabase, type TestDatabase } from "../../tests/support/database.ts";
import { sql } from "drizzle-orm";
import { invalidationChannel, onInvalidate } from "../lib/invalidation.ts";

/**
 * With a PostgreSQL server, an invalidation in one process reaches the others. Two apps on one
 * database stand in for two processes: a NOTIFY sent as the other process would send it must reach
 * this one's listeners.
 */
describe.runIf(process.env.TEST_DATABASE_URL)("invalidation across processes (PostgreSQL)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
  });
  afterAll(() => database.dispose());

  it("delivers another process's invalidation to this process's caches", async () => {
    const config = loadConfig({ DATA_DIR: "/tmp", SESSION_SECRET: "test-secret", CAPTCHA: "off" });
    const app = await buildApp({ config, database });
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
});
