import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addMember, createCircle, createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { encyclopediaEntries } from "../../server/db/schema/index.ts";

let counter = 0;
const word = (prefix: string) => `${prefix}${process.pid % 1000}s${(counter += 1)}`;

/** /wiki: the site's encyclopedia home across the circles the viewer may read. */
describe.each(databaseKinds)("site encyclopedia home on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("searches, features, lists recent entries and entries by circle, never from a circle the reader may not read", async () => {
    const { visitor, user } = await createSignedInUser(api.app, db());
    const open = await createCircle(db(), { nameZh: word("数学"), nameEn: word("Mathematics") });
    const closed = await createCircle(db(), { nameZh: word("秘密"), nameEn: word("Secret"), visibility: "members" });
    await addMember(db(), open.id, user.id);
    await addMember(db(), closed.id, user.id);
    const create = async (circleId: number, name: string) => {
      const response = await visitor.post(`/api/circles/${circleId}/encyclopedia/entries/`, { language: "zh-CN", name, content: "说明。" });
      expect(response.statusCode, response.body).toBe(201);
      return response.json() as { id: number };
    };
    const pythagoras = word("勾股定理");
    const euler = word("欧拉公式");
    const hidden = word("勾股秘闻");
    const first = await create(open.id, pythagoras);
    await create(open.id, euler);
    const secret = await create(closed.id, hidden);
    // The most read entries of the site: the closed circle's one is read most but never shown to outsiders.
    await db().update(encyclopediaEntries).set({ views: 50, citeCount: 2 }).where(eq(encyclopediaEntries.id, first.id));
    await db().update(encyclopediaEntries).set({ views: 900 }).where(eq(encyclopediaEntries.id, secret.id));

    const outsider = new Visitor(api.app);
    const home = await outsider.get("/wiki");
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('data-testid="site-wiki"');
    const section = (body: string, testId: string) => {
      const start = body.indexOf(`data-testid="${testId}"`);
      expect(start, testId).toBeGreaterThan(-1);
      return body.slice(start, body.indexOf("</section>", start));
    };
    const featured = section(home.body, "site-wiki-featured");
    expect(featured).toContain(`href="/circles/${open.id}/encyclopedia/${first.id}"`);
    expect(featured).toContain("50 次浏览");
    expect(featured).toContain(open.nameZh);
    expect(section(home.body, "site-wiki-recent")).toContain(euler);
    const circles = home.body.slice(home.body.indexOf('data-testid="site-wiki-circles"'));
    expect(circles).toContain(`href="/circles/${open.id}/encyclopedia"`);
    expect(circles).toContain(pythagoras);
    expect(circles).toContain(euler);
    expect(home.body).not.toContain(hidden);
    expect(home.body).not.toContain(closed.nameZh);

    const found = await outsider.get(`/wiki?q=${encodeURIComponent("勾股")}`);
    expect(section(found.body, "site-wiki-results")).toContain(pythagoras);
    expect(found.body).not.toContain(hidden);

    const member = await visitor.get(`/wiki?q=${encodeURIComponent("勾股")}`);
    expect(section(member.body, "site-wiki-results")).toContain(hidden);
    const memberFeatured = section(member.body, "site-wiki-featured");
    expect(memberFeatured.indexOf(hidden)).toBeLessThan(memberFeatured.indexOf(pythagoras));
    expect(member.body).toContain(`href="/circles/${closed.id}/encyclopedia"`);

    const english = await outsider.get("/en/wiki");
    expect(english.statusCode).toBe(200);
    expect(english.body).toContain("Featured entries");
    expect(english.body).toContain(`href="/en/circles/${open.id}/encyclopedia/${first.id}"`);
    expect(english.body).toContain(open.nameEn);
    const none = await outsider.get("/en/wiki?q=zzzz");
    expect(none.body).toContain("No entry’s name or alias contains “zzzz”.");
  });
});
