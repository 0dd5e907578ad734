import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, isNull } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../tests/support/database.ts";
import { createCircle, createEntry as makeEntry, createUser } from "../../tests/support/factories.ts";
import { encyclopediaEntries, events, writings } from "../../server/db/schema/index.ts";
import { presentViewer } from "../accounts/viewer.ts";
import { seedDemoUsers } from "../accounts/seed.ts";
import { seedDemoWritings } from "../writings/seed.ts";
import { createEntrySchema } from "./schema.ts";
import { entriesByIds, searchEntries } from "./service.ts";
import { createEntry } from "./editing.ts";
import { seedDemoEntries } from "./seed.ts";

describe("encyclopedia service", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  });
  afterAll(() => database.dispose());
  const db = () => database.db;

  it("ranks the exact name first, then name prefixes, then alias prefixes, then any other match; shorter names first within a rank", async () => {
    const creator = await createUser(db());
    const circle = await createCircle(db());
    const other = await makeEntry(db(), circle.id, creator, { name: "尾递归优化中的递归" });
    const aliasPrefix = await makeEntry(db(), circle.id, creator, { name: "自调用", aliases: ["递归调用"] });
    const longPrefix = await makeEntry(db(), circle.id, creator, { name: "递归下降分析" });
    const shortPrefix = await makeEntry(db(), circle.id, creator, { name: "递归函数" });
    const exact = await makeEntry(db(), circle.id, creator, { name: "递归" });
    const aliasInside = await makeEntry(db(), circle.id, creator, { name: "Y 组合子", aliases: ["匿名递归"] });
    await makeEntry(db(), circle.id, creator, { name: "迭代" });
    const found = await searchEntries(db(), null, { q: " 递归 ", circleId: circle.id });
    expect(found.map((entry) => entry.id)).toEqual([exact.id, shortPrefix.id, longPrefix.id, aliasPrefix.id, aliasInside.id, other.id]);
    expect(await searchEntries(db(), null, { q: "递归", circleId: circle.id, limit: 2 })).toHaveLength(2);
    // Case does not matter, on either side.
    const latin = await makeEntry(db(), circle.id, creator, { name: "QuickSort", aliases: ["Partition-Exchange Sort"] });
    expect((await searchEntries(db(), null, { q: "quicks", circleId: circle.id })).map((entry) => entry.id)).toEqual([latin.id]);
    expect((await searchEntries(db(), null, { q: "EXCHANGE", circleId: circle.id })).map((entry) => entry.id)).toEqual([latin.id]);
  });

  it("gives entries by id in the order asked, leaving out unknown ones and those the viewer may not read", async () => {
    const creator = await createUser(db());
    const hidden = await createCircle(db(), { visibility: "members" });
    const open = await makeEntry(db(), 1, creator);
    const secret = await makeEntry(db(), hidden.id, creator);
    const second = await makeEntry(db(), 1, creator);
    expect((await entriesByIds(db(), null, [second.id, 999_999, secret.id, open.id, second.id])).map((entry) => entry.id)).toEqual([
      second.id,
      open.id,
    ]);
    expect(await entriesByIds(db(), null, [])).toEqual([]);
  });

  it("creates an entry with its description rendered, a parent of the same circle, an event; refuses a parent elsewhere", async () => {
    const author = presentViewer(await createUser(db()));
    const circle = await createCircle(db());
    const parent = await createEntry(
      { db: db() },
      author,
      circle.id,
      createEntrySchema.parse({ name: "几何", content: "研究形状的学问。" }),
    );
    const { id, url } = await createEntry(
      { db: db() },
      author,
      circle.id,
      createEntrySchema.parse({
        name: "勾股定理",
        aliases: ["勾股定理", "毕氏定理", "毕氏定理"],
        disambiguation: "平面几何",
        parent_id: parent.id,
        content: "$a^2 + b^2 = c^2$",
      }),
    );
    expect(url).toBe(`/circles/${circle.id}/encyclopedia/${id}`);
    const [row] = await db().select().from(encyclopediaEntries).where(eq(encyclopediaEntries.id, id));
    expect(row).toMatchObject({
      name: "勾股定理",
      aliases: ["毕氏定理"],
      disambiguation: "平面几何",
      parentId: parent.id,
      creatorId: author.id,
      // The first revision is the first edit.
      editCount: 1,
      views: 0,
      citeCount: 0,
    });
    expect(row!.descriptionHtml).toContain("katex");
    expect(
      await db()
        .select()
        .from(events)
        .where(and(eq(events.verb, "entry.created"), eq(events.subjectId, id))),
    ).toHaveLength(1);
    const elsewhere = await createCircle(db());
    await expect(
      createEntry({ db: db() }, author, elsewhere.id, createEntrySchema.parse({ name: "孤儿", parent_id: parent.id, content: "x" })),
    ).rejects.toMatchObject({ code: "validation_failed" });
    const hidden = await createCircle(db(), { visibility: "members" });
    await expect(
      createEntry({ db: db() }, author, hidden.id, createEntrySchema.parse({ name: "秘密", content: "x" })),
    ).rejects.toMatchObject({ code: "not_found" });
  });

  it("seeds demo entries once, and the demo math article relates to them", async () => {
    await seedDemoUsers(db());
    await seedDemoEntries(db());
    await seedDemoEntries(db());
    const demo = await db().select().from(encyclopediaEntries).where(eq(encyclopediaEntries.name, "欧拉公式"));
    expect(demo.map((entry) => entry.disambiguation).sort()).toEqual(["复分析", "多面体"]);
    await seedDemoWritings(db());
    const [math] = await db()
      .select()
      .from(writings)
      .where(and(eq(writings.title, "勾股定理的三种证明"), isNull(writings.translationOf)));
    const related = await entriesByIds(db(), null, math!.relatedEntryIds);
    expect(related.map((entry) => entry.name)).toEqual(["勾股定理", "欧几里得几何"]);
    const [pythagoras] = await searchEntries(db(), null, { q: "毕达哥拉斯" });
    expect(pythagoras?.name).toBe("勾股定理");
  });
});
