import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../tests/support/database.ts";
import { events } from "../db/schema/index.ts";
import { inTransaction } from "./transactions.ts";
import { onInvalidate } from "./invalidation.ts";

describe.each(databaseKinds)("transactions and events on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.dispose());

  it("runs after-commit tasks and invalidations only once the change is committed", async () => {
    const seen: string[] = [];
    const stop = onInvalidate((tags) => seen.push(...tags));
    let committedWhenRun: number | undefined;
    await inTransaction({ db: database.db }, async (tx) => {
      await tx.db.insert(events).values({ actorId: null, verb: "test.happened", subjectType: "test", subjectId: 1 });
      tx.afterCommit(async () => {
        committedWhenRun = (await database.db.select().from(events).where(eq(events.verb, "test.happened"))).length;
      });
      tx.invalidate("circle:1", "home");
      expect(seen).toEqual([]);
    });
    stop();
    expect(committedWhenRun).toBe(1);
    expect(seen).toEqual(["circle:1", "home"]);
  });

  it("rolls back the change and its event together, and runs no after-commit task", async () => {
    let ran = false;
    await expect(
      inTransaction({ db: database.db }, async (tx) => {
        await tx.db.insert(events).values({ actorId: null, verb: "test.rolled_back", subjectType: "test", subjectId: 2 });
        tx.afterCommit(() => (ran = true));
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(ran).toBe(false);
    expect(await database.db.select().from(events).where(eq(events.verb, "test.rolled_back"))).toEqual([]);
  });
});
