import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addMember, createCircle, createUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { rebuildIndex } from "./indexer.ts";

/** The search and ranking pages without JavaScript, and the RSS/Atom feeds (issue 25). */
describe.each(databaseKinds)("search pages and feeds on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("serves the search page's results, tabs and escaped snippets, the ranking page, and feeds that respect visibility and language", async () => {
    const author = await createUser(db());
    const circle = await createCircle(db(), { nameZh: "天文爱好者", nameEn: "Astronomers" });
    const closed = await createCircle(db(), { visibility: "members" });
    await addMember(db(), closed.id, author.id);
    const open = await createWriting(db(), author, { circleId: circle.id, title: "观测木星的夜晚", content: "木星的<大红斑>很显眼" });
    const english = await createWriting(db(), author, { circleId: circle.id, title: "Watching Jupiter", language: "en" });
    const secret = await createWriting(db(), author, { circleId: closed.id, title: "秘密的木星笔记" });
    await rebuildIndex(db());
    const visitor = new Visitor(api.app);

    const page = await visitor.get(`/search?q=${encodeURIComponent("木星")}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("观测木星的夜晚");
    expect(page.body).not.toContain("秘密的木星笔记");
    expect(page.body).toContain("<mark>木星</mark>");
    expect(page.body).toContain("&#60;大红斑&#62;");
    expect(page.body).toContain('href="/search?q=%E6%9C%A8%E6%98%9F&amp;type=entry"');
    const tab = await visitor.get(`/en/search?q=${encodeURIComponent("木星")}&type=book`);
    expect(tab.body).toContain("Nothing matches");
    expect((await visitor.get("/en/ranking?period=month&kind=writing")).statusCode).toBe(200);

    const site = await visitor.get("/feed.xml");
    expect(site.statusCode).toBe(200);
    expect(site.headers["content-type"]).toContain("application/rss+xml");
    expect(site.body).toContain("观测木星的夜晚");
    expect(site.body).not.toContain("秘密的木星笔记");
    expect(site.body).not.toContain("Watching Jupiter");
    expect((await visitor.get("/en/feed.xml")).body).toContain("Watching Jupiter");
    const atom = await visitor.get(`/en/circles/${circle.id}/feed.xml?format=atom`);
    expect(atom.headers["content-type"]).toContain("application/atom+xml");
    expect(atom.body).toContain(`/en/circles/${circle.id}/writing/${english.id}`);
    expect((await visitor.get(`/circles/${closed.id}/feed.xml`)).statusCode).toBe(404);
    const profile = await visitor.get(`/profile/${author.username}/feed.xml`);
    expect(profile.body).toContain(`/circles/${circle.id}/writing/${open.id}`);
    expect(profile.body).not.toContain(String(`/writing/${secret.id}<`));
    const home = await visitor.get(`/circles/${circle.id}`);
    expect(home.body).toContain(`rel="alternate" type="application/rss+xml"`);
    expect(home.body).toContain(`href="/circles/${circle.id}/feed.xml"`);
  });
});
