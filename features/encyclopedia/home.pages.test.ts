import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addMember, createCircle, createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { recordView } from "../metrics/views.ts";

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
    for (const key of ["v:a", "v:b", "v:c"]) await recordView({ db: db() }, { type: "entry", id: popular.id }, key, { bot: false });
    await recordView({ db: db() }, { type: "entry", id: quiet.id }, "v:a", { bot: false });

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

  it("lists each entry once, in the reader's language when it has a version in it, with its other versions as links", async () => {
    const { visitor, user } = await createSignedInUser(api.app, db());
    const circle = await createCircle(db());
    await addMember(db(), circle.id, user.id);
    const create = async (body: Record<string, unknown>) => {
      const response = await visitor.post(`/api/circles/${circle.id}/encyclopedia/entries/`, { content: "说明。", ...body });
      expect(response.statusCode, response.body).toBe(201);
      return response.json() as { id: number };
    };
    const zhName = word("勾股定理");
    const enName = word("Pythagorean theorem");
    const both = await create({ name: zhName, language: "zh-CN" });
    const english = await visitor.post(`/api/encyclopedia/entries/${both.id}/versions/`, {
      language: "en",
      name: enName,
      content: "About it.",
    });
    expect(english.statusCode, english.body).toBe(201);
    const englishId = (english.json() as { id: number }).id;
    const onlyChinese = await create({ name: word("欧拉公式"), language: "zh-CN" });
    const onlyEnglish = await create({ name: word("Recursion"), language: "en" });
    await recordView({ db: db() }, { type: "entry", id: both.id }, "v:a", { bot: false });
    await recordView({ db: db() }, { type: "entry", id: englishId }, "v:b", { bot: false });
    await recordView({ db: db() }, { type: "entry", id: onlyChinese.id }, "v:c", { bot: false });
    const rows = (body: string, testId: string) => {
      const start = body.indexOf(testId);
      return body.slice(start, body.indexOf("</ul>", start)).split("<li").slice(1);
    };
    const tab = (path: string) => {
      const start = path.indexOf('<ul class="entry-list"');
      return path.slice(start, path.indexOf("</ul>", start)).split("<li").slice(1);
    };

    const zh = await visitor.get(`/circles/${circle.id}?tab=encyclopedia`);
    expect(zh.statusCode).toBe(200);
    const zhRows = tab(zh.body);
    expect(zhRows).toHaveLength(3);
    const zhBoth = zhRows.find((row) => row.includes(zhName))!;
    expect(zhBoth).toContain(`href="/circles/${circle.id}/encyclopedia/${both.id}"`);
    expect(zhBoth).toContain(`href="/circles/${circle.id}/encyclopedia/${both.id}/en"`);
    expect(zhBoth).toContain("英文");
    expect(zhBoth).toContain(`>${zhName}</a>`);
    expect(zhBoth).not.toContain(`>${enName}</a>`);
    // The circle's counts say three entries too.
    expect(zh.body).toContain("<li>3 个词条</li>");
    expect(zhRows.some((row) => row.includes(`/encyclopedia/${onlyEnglish.id}"`))).toBe(true);

    const en = await new Visitor(api.app).get(`/en/circles/${circle.id}?tab=encyclopedia`);
    const enRows = tab(en.body);
    expect(enRows).toHaveLength(3);
    const enBoth = enRows.find((row) => row.includes(enName))!;
    expect(enBoth).toContain(`href="/en/circles/${circle.id}/encyclopedia/${both.id}/en"`);
    expect(enBoth).toContain(`href="/en/circles/${circle.id}/encyclopedia/${both.id}"`);
    expect(enBoth).toContain("Chinese");
    expect(enBoth).toContain(`>${enName}</a>`);
    expect(enBoth).not.toContain(`>${zhName}</a>`);

    const home = await new Visitor(api.app).get(`/en/circles/${circle.id}/encyclopedia`);
    expect(home.body).toContain("3 entries");
    const recent = rows(home.body, 'data-testid="wiki-recent"');
    expect(recent).toHaveLength(3);
    expect(recent.filter((row) => row.includes(`/encyclopedia/${both.id}`))).toHaveLength(1);
    expect(recent.find((row) => row.includes(`/encyclopedia/${both.id}`))).toContain(`>${enName}</a>`);
    // Views of both versions add up: the entry read in two languages is the hottest.
    const hotStart = home.body.indexOf('data-testid="wiki-hot"');
    const hot = home.body.slice(hotStart, home.body.indexOf("</ol>", hotStart)).split("<li").slice(1);
    expect(hot).toHaveLength(2);
    expect(hot[0]).toContain(`>${enName}</a>`);
    expect(hot[0]).toContain("2 views");
  });
});
