import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../tests/support/database.ts";
import { createBook, createCircle, createEntry, createQuestion, createUser, createWriting } from "../../tests/support/factories.ts";
import { writings } from "../../server/db/schema/index.ts";
import {
  parseSitemapFile,
  sitemapFiles,
  sitemapIndexXml,
  sitemapPageSize,
  sitemapSections,
  sitemapUrls,
  urlsetXml,
} from "./sitemap.server.ts";

/** The sitemap index and its pages, paged with a small page size. */
describe.each(databaseKinds)("sitemap paging on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.dispose());
  const origin = "https://circles.example";

  it("lists every page in the index, each page holds at most the page size, and together they hold every URL once", async () => {
    const { db } = database;
    const author = await createUser(db);
    const hidden = await createCircle(db, { visibility: "members" });
    const published: number[] = [];
    for (let index = 0; index < 7; index += 1)
      published.push((await createWriting(db, author, { type: index % 2 ? "post" : "article" })).id);
    const translated = await createWriting(db, author, { language: "en" });
    const { id: _id, ...copy } = translated;
    const [version] = await db
      .insert(writings)
      .values({ ...copy, language: "zh-CN", translationOf: translated.id })
      .returning();
    const secret = await createWriting(db, author, { circleId: hidden.id });
    for (let index = 0; index < 5; index += 1) await createEntry(db, 1, author);
    await createBook(db, author, { chapters: ["一", "二"] });
    const question = await createQuestion(db, author);
    const hiddenQuestion = await createQuestion(db, author, { circleId: hidden.id });

    const pageSize = 3;
    const files = await sitemapFiles(db, pageSize);
    for (const section of sitemapSections())
      expect(
        files.some((file) => file.startsWith(`${section}-`)),
        section,
      ).toBe(true);
    const all: string[] = [];
    for (const file of files) {
      const { section, page } = parseSitemapFile(file)!;
      const urls = (await sitemapUrls(db, origin, section, page, pageSize))!;
      expect(urls.length, file).toBeGreaterThan(0);
      expect(urls.length, file).toBeLessThanOrEqual(pageSize);
      all.push(...urls);
    }
    const locs = all.map((url) => /<loc>([^<]+)<\/loc>/.exec(url)![1]!);
    expect(new Set(locs).size).toBe(locs.length);
    for (const id of published)
      expect(
        locs.some((loc) => loc.endsWith(`/${id}`)),
        `writing ${id}`,
      ).toBe(true);
    expect(locs.some((loc) => loc.endsWith(`/writing/${secret.id}`))).toBe(false);
    expect(locs).toContain(`${origin}/circles/1/questions/${question.id}`);
    expect(locs.some((loc) => loc.endsWith(`/questions/${hiddenQuestion.id}`))).toBe(false);
    // The translated writing: both versions listed, each with the other as an alternate.
    const english = all.find((url) => url.includes(`<loc>${origin}/en/circles/1/writing/${translated.id}</loc>`))!;
    expect(english).toContain('hreflang="zh-CN"');
    expect(locs).toContain(`${origin}/circles/1/writing/${version!.id}`);
    expect(locs).toContain(`${origin}/en/circles/1`);
    expect(locs).not.toContain(`${origin}/circles/${hidden.id}`);
    // Past the last page: nothing.
    expect(await sitemapUrls(db, origin, "writings", files.filter((file) => file.startsWith("writings-")).length + 1, pageSize)).toBeNull();

    const index = sitemapIndexXml(origin, files);
    expect(index.match(/<sitemap>/g)!.length).toBe(files.length);
    expect(index).toContain(`<loc>${origin}/sitemap/writings-1.xml</loc>`);
    expect(urlsetXml(all.slice(0, 2))).toContain("<urlset");
  });

  it("pages at most 50,000 URLs and names only real sections", () => {
    expect(sitemapPageSize).toBeLessThanOrEqual(50_000);
    expect(parseSitemapFile("writings-2")).toEqual({ section: "writings", page: 2 });
    for (const bad of ["writings-0", "writings-01", "users-1", "writings-1.xml", "pages", "pages-1234567"])
      expect(parseSitemapFile(bad), bad).toBeNull();
  });
});
