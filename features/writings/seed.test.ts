import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count, isNotNull } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../tests/support/database.ts";
import { writings } from "../../server/db/schema/index.ts";
import { seedDemoUsers } from "../accounts/seed.ts";
import { seedDemoWritings } from "./seed.ts";

describe("demo writings", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    await seedDemoUsers(database.db);
  });
  afterAll(() => database.dispose());

  it("seeds both languages, math, code, a serialized article and posts, once", async () => {
    await seedDemoWritings(database.db);
    const rows = await database.db.select().from(writings);
    expect(rows.length).toBe(8);
    expect(new Set(rows.map((row) => row.language))).toEqual(new Set(["zh-CN", "en"]));
    expect(rows.some((row) => row.html.includes("katex"))).toBe(true);
    expect(rows.some((row) => row.html.includes("shiki"))).toBe(true);
    expect(rows.filter((row) => row.type === "post")).toHaveLength(2);
    expect(rows.filter((row) => row.type === "serial").map((row) => row.partNumber)).toEqual([1, 2]);
    expect((await database.db.select({ n: count() }).from(writings).where(isNotNull(writings.translationOf)))[0]!.n).toBe(2);
    await seedDemoWritings(database.db);
    expect(await database.db.select().from(writings)).toHaveLength(8);
  });
});
