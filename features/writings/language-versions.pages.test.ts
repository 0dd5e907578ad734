import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser, createUser, createEntry } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { eq } from "drizzle-orm";
import { encyclopediaEntries } from "../../server/db/schema/index.ts";
import { invalidate } from "../../server/lib/invalidation.ts";
import { contentTag } from "../../server/lib/cache-tags.ts";
import { closeRenderer, renderMarkdown } from "../content/render.server.ts";

const titleOf = (body: string) => /<h1 class="page-title writing-title"[^>]*>([^<]*)/.exec(body)?.[1];

/**
 * A link opened in one interface language reads the version in that language, lists show it, and
 * an entry's counters move with the writings citing it and its readers, as plain HTML documents.
 */
describe.each(databaseKinds)("language versions and entry counters on pages (%s)", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(async () => {
    await api.close();
    await closeRenderer();
  });
  const db = () => api.database.db;

  async function twoVersions(suffix: string) {
    const { visitor } = await createSignedInUser(api.app, db());
    const zh = await visitor.post("/api/circles/1/writings/", { title: `三种证明${suffix}`, content: "中文正文 $a^2+b^2=c^2$。" });
    expect(zh.statusCode, zh.body).toBe(201);
    const zhId = (zh.json() as { id: number }).id;
    const en = await visitor.post("/api/circles/1/writings/", {
      title: `Three proofs ${suffix}`,
      content: "English text $\\sin(\\pi)$.",
      language: "en",
      translation_of: zhId,
    });
    expect(en.statusCode, en.body).toBe(201);
    return { visitor, zhId, enId: (en.json() as { id: number }).id };
  }

  it("opens the version in the interface language, keeps the switcher, and lists it under /en", async () => {
    const { zhId, enId } = await twoVersions("甲");
    const reader = new Visitor(api.app);
    const english = await reader.get(`/en/circles/1/writing/${zhId}`);
    expect(english.statusCode).toBe(200);
    expect(titleOf(english.body)).toContain("Three proofs 甲");
    expect(english.body).toContain(`href="/en/circles/1/writing/${enId}/zh-CN"`);
    const chinese = await reader.get(`/circles/1/writing/${zhId}`);
    expect(chinese.statusCode).toBe(200);
    expect(titleOf(chinese.body)).toContain("三种证明甲");
    // A later version's own address (where its author lands after publishing it) stays that version.
    expect(titleOf((await reader.get(`/circles/1/writing/${enId}`)).body)).toContain("Three proofs 甲");
    // The switcher still reaches the other language explicitly.
    const explicit = await reader.get(`/en/circles/1/writing/${enId}/zh-CN`);
    expect(titleOf(explicit.body)).toContain("三种证明甲");

    const home = await reader.get("/en?tab=all");
    expect(home.body).toContain("Three proofs 甲");
    expect(home.body).not.toContain("三种证明甲");
    expect(home.body).toContain("English text sin(π).");
    const zhHome = await reader.get("/?tab=all");
    expect(zhHome.body).toContain("三种证明甲");
    expect(zhHome.body).not.toContain("Three proofs 甲");
    const feed = await new Visitor(api.app, { "accept-language": "en" }).get("/api/writings/?tab=all");
    const item = (feed.json() as { items: { id: number; title: string; language: string }[] }).items.find((row) => row.id === zhId);
    expect(item).toMatchObject({ title: "Three proofs 甲", language: "en" });
  });

  it("shows an entry's citations and views on its page on the next request", async () => {
    const creator = await createUser(db());
    const entry = await createEntry(db(), 1, creator, { name: "被引用的词条" });
    const { visitor } = await createSignedInUser(api.app, db());
    for (const title of ["第一篇", "第二篇"]) {
      const created = await visitor.post("/api/circles/1/writings/", { title, content: "正文。", related_entries: [entry.id] });
      expect(created.statusCode, created.body).toBe(201);
    }
    await visitor.get(`/api/encyclopedia/entries/${entry.id}/view.gif`);
    const page = await visitor.get(`/en/circles/1/encyclopedia/${entry.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`src="/api/views/entry/${entry.id}/view.gif"`);
    expect(page.body).toContain("cited 2 times");
    expect(page.body).toMatch(/1 view\b/);
  });

  it("describes an entry in its meta by its rendered text, never TeX source", async () => {
    const creator = await createUser(db());
    const markdown = "直角三角形满足 $a^2+b^2=c^2$。";
    const entry = await createEntry(db(), 1, creator, { name: "勾股定理（公式）", description: markdown });
    const rendered = await renderMarkdown(markdown, { locale: "zh-CN" });
    await db().update(encyclopediaEntries).set({ descriptionHtml: rendered.html }).where(eq(encyclopediaEntries.id, entry.id));
    await invalidate([contentTag("entry", entry.id)]);
    const page = await new Visitor(api.app).get(`/circles/1/encyclopedia/${entry.id}`);
    expect(page.body).toContain('<meta name="description" content="直角三角形满足 [公式]。"');
  });
});
