import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../tests/support/database.ts";
import { friendLinks } from "../../server/db/schema/index.ts";
import { listApprovedLinks } from "./service.ts";
import { seedDemoLinks } from "./seed.ts";

describe("demo friend links", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  });
  afterAll(() => database.dispose());

  it("seeds approved links in both languages once, listed on /link", async () => {
    await seedDemoLinks(database.db);
    const listed = await listApprovedLinks(database.db);
    expect(listed.map((link) => link.name)).toEqual(["维基百科", "OI Wiki", "arXiv", "MDN Web Docs", "Project Gutenberg"]);
    expect(new Set(listed.map((link) => link.language))).toEqual(new Set(["zh-CN", "en", "both"]));
    await seedDemoLinks(database.db);
    expect(await database.db.select().from(friendLinks)).toHaveLength(5);
  });
});
