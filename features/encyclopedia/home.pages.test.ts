import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addMember, createCircle, createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { recordEntryView } from "./views.ts";

let counter = 0;
const word = (prefix: string) => `${prefix}${process.pid % 1000}h${(counter += 1)}`;

/** The circle's wiki home as a plain HTML document (no JavaScript), in both languages. */
describe.each(databaseKinds)("encyclopedia wiki home on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("searches names and aliases in Chinese and English, counts entries once per language group, lists recent and hot entries", async () => {
    const { visitor, user } = await createSignedInUser(api.app, db());
    const circle = await createCircle(db());
    await addMember(db(), circle.id, user.id);
    const create = async (body: Record<string, unknown>) => {
      const response = await visitor.post(`/api/circles/${circle.id}/encyclopedia/entries/`, {
        language: "zh-CN",
        content: "说明。",
        ...body,
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json() as { id: number };
    };
    const quiet = await create({ name: word("勾股定理"), aliases: [word("商高定理")] });
    const popular = await create({ name: word("欧拉公式") });
    const english = await visitor.post(`/api/encyclopedia/entries/${quiet.id}/versions/`, {
      language: "en",
      name: word("Pythagorean theorem"),
      aliases: ["Pythagoras' theorem"],
      content: "About it.",
    });
    expect(english.statusCode, english.body).toBe(201);
    for (const key of ["v:a", "v:b", "v:c"]) await recordEntryView({ db: db() }, popular.id, key);
    await recordEntryView({ db: db() }, quiet.id, "v:a");

    const home = await visitor.get(`/circles/${circle.id}/encyclopedia`);
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain("共 2 个词条");
    expect(home.body).toContain(`href="/circles/${circle.id}/encyclopedia/write"`);
    const hot = home.body.slice(home.body.indexOf('data-testid="wiki-hot"'));
    expect(hot.indexOf(`/encyclopedia/${popular.id}"`)).toBeLessThan(hot.indexOf(`/encyclopedia/${quiet.id}"`));
    expect(hot).toContain("3 次浏览");
    const recent = home.body.slice(home.body.indexOf('data-testid="wiki-recent"'));
    expect(recent).toContain(`/circles/${circle.id}/encyclopedia/${quiet.id}/en`);

    const byAlias = await visitor.get(`/circles/${circle.id}/encyclopedia?q=${encodeURIComponent("商高")}`);
    expect(byAlias.body).toContain('data-testid="wiki-results"');
    expect(byAlias.body).toContain(`/circles/${circle.id}/encyclopedia/${quiet.id}"`);
    const englishAlias = await new Visitor(api.app).get(`/en/circles/${circle.id}/encyclopedia?q=pythagoras`);
    expect(englishAlias.statusCode).toBe(200);
    expect(englishAlias.body).toContain("2 entries");
    expect(englishAlias.body).toContain(`/en/circles/${circle.id}/encyclopedia/${quiet.id}/en"`);
    const none = await visitor.get(`/en/circles/${circle.id}/encyclopedia?q=zzzz`);
    expect(none.body).toContain("No entry’s name or alias contains “zzzz”.");
  });
});
