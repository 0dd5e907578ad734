import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addMember, createCircle, createEntry, createSignedInUser, createUser } from "../../tests/support/factories.ts";
import { wholeSitemap } from "../../tests/support/sitemap.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { formatDate } from "../../common/locale.ts";

/**
 * The entry page, the circle's encyclopedia tab, related entries on reading pages and the
 * editor's related-entries field as plain HTML documents (no JavaScript), in this process.
 */
describe.each(databaseKinds)("encyclopedia pages on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("shows an entry completely without JavaScript, in both languages: name, note, aliases, parent, description, creator, created time", async () => {
    const creator = await createUser(db(), { nickname: "词条作者" });
    const circle = await createCircle(db());
    const parent = await createEntry(db(), circle.id, creator, { name: "欧几里得几何" });
    const entry = await createEntry(db(), circle.id, creator, {
      name: "勾股定理",
      aliases: ["毕达哥拉斯定理", "商高定理"],
      disambiguation: "平面几何",
      parentId: parent.id,
      description: "直角三角形 <b>斜边</b>",
    });
    const visitor = new Visitor(api.app);
    const page = await visitor.get(`/circles/${circle.id}/encyclopedia/${entry.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("勾股定理");
    expect(page.body).toContain("（平面几何）");
    expect(page.body).toContain("毕达哥拉斯定理");
    expect(page.body).toContain(`href="/circles/${circle.id}/encyclopedia/${parent.id}"`);
    expect(page.body).toContain("直角三角形 &lt;b&gt;斜边&lt;/b&gt;");
    expect(page.body).toContain("词条作者");
    expect(page.body).toContain(formatDate(entry.createdAt, "zh-CN", { dateStyle: "medium", timeStyle: "short" }));
    expect(page.body).toContain('"@type":"DefinedTerm"');
    expect(page.body).toContain(`href="/circles/${circle.id}/encyclopedia"`);
    const english = await visitor.get(`/en/circles/${circle.id}/encyclopedia/${entry.id}`);
    expect(english.statusCode).toBe(200);
    expect(english.body).toContain("Also known as");
    expect(english.body).toContain(formatDate(entry.createdAt, "en", { dateStyle: "medium", timeStyle: "short" }));
  });

  it("answers 404 for a missing or unreadable entry, sends visitors of a members-only circle to log in, and 301s to the entry's own circle", async () => {
    const creator = await createUser(db());
    const hidden = await createCircle(db(), { visibility: "members" });
    const closed = await createCircle(db(), { visibility: "circle" });
    const secret = await createEntry(db(), hidden.id, creator);
    const inner = await createEntry(db(), closed.id, creator);
    const visitor = new Visitor(api.app);
    expect((await visitor.get("/circles/1/encyclopedia/999999")).statusCode).toBe(404);
    expect((await visitor.get("/en/circles/1/encyclopedia/abc")).statusCode).toBe(404);
    expect((await visitor.get(`/circles/${hidden.id}/encyclopedia/${secret.id}`)).statusCode).toBe(404);
    expect((await visitor.get(`/circles/${closed.id}/encyclopedia/${inner.id}`)).statusCode).toBe(302);
    const { user, visitor: outsider } = await createSignedInUser(api.app, db());
    expect((await outsider.get(`/circles/${closed.id}/encyclopedia/${inner.id}`)).statusCode).toBe(404);
    await addMember(db(), closed.id, user.id);
    expect((await outsider.get(`/circles/${closed.id}/encyclopedia/${inner.id}`)).statusCode).toBe(200);
    const open = await createEntry(db(), 1, creator);
    const moved = await visitor.get(`/en/circles/${closed.id}/encyclopedia/${open.id}?x=1`);
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe(`/en/circles/1/encyclopedia/${open.id}?x=1`);
    // The wiki home is as private as the circle's content.
    expect((await outsider.get(`/circles/${closed.id}/encyclopedia`)).statusCode).toBe(200);
    expect((await (await createSignedInUser(api.app, db())).visitor.get(`/circles/${closed.id}/encyclopedia`)).statusCode).toBe(404);
  });

  it("lists a circle's entries on its encyclopedia tab and puts public entries in the sitemap", async () => {
    const creator = await createUser(db());
    const circle = await createCircle(db());
    const hidden = await createCircle(db(), { visibility: "members" });
    const zh = await createEntry(db(), circle.id, creator, { name: "欧拉公式", disambiguation: "多面体" });
    const en = await createEntry(db(), circle.id, creator, { name: "Euler's formula", disambiguation: "complex analysis", language: "en" });
    const secret = await createEntry(db(), hidden.id, creator);
    const visitor = new Visitor(api.app);
    const tab = await visitor.get(`/circles/${circle.id}?tab=encyclopedia`);
    expect(tab.body).toContain(`href="/circles/${circle.id}/encyclopedia/${zh.id}"`);
    expect(tab.body).toContain("（多面体）");
    expect(tab.body).toContain(" (complex analysis)");
    expect(tab.body).toContain("2 个词条");
    const empty = await visitor.get(`/circles/${(await createCircle(db())).id}?tab=encyclopedia`);
    expect(empty.body).toContain("这个圈子还没有百科词条。");
    const sitemap = await wholeSitemap(async (path) => (await visitor.get(path)).body);
    expect(sitemap).toContain(`/circles/${circle.id}/encyclopedia/${zh.id}</loc>`);
    expect(sitemap).toContain(`/en/circles/${circle.id}/encyclopedia/${en.id}</loc>`);
    expect(sitemap).not.toContain(`/encyclopedia/${secret.id}<`);
  });

  it("links a writing's related entries by name on its reading page, leaving out those the reader may not read; the editor takes ids without JavaScript", async () => {
    const { user, visitor } = await createSignedInUser(api.app, db());
    const hidden = await createCircle(db(), { visibility: "members" });
    await addMember(db(), hidden.id, user.id);
    const open = await createEntry(db(), 1, user, { name: "递归", disambiguation: "编程" });
    const secret = await createEntry(db(), hidden.id, user, { name: "秘密词条" });
    const created = await visitor.post("/api/circles/1/writings/", {
      title: "关于递归",
      content: "正文",
      related_entries: [open.id, secret.id],
    });
    expect(created.statusCode, created.body).toBe(201);
    const { url } = created.json();
    const own = await visitor.get(url);
    expect(own.body).toContain(`href="/circles/1/encyclopedia/${open.id}"`);
    expect(own.body).toContain("秘密词条");
    const outsider = await new Visitor(api.app).get(url);
    expect(outsider.body).toContain(`href="/circles/1/encyclopedia/${open.id}"`);
    expect(outsider.body).toContain("（编程）");
    expect(outsider.body).not.toContain("秘密词条");

    // The editor shows the related entries' names (the picker's chips) and keeps the ids field.
    const editor = await visitor.get(`/circles/1/write/article?edit=${created.json().id}`);
    expect(editor.body).toContain(`value="${open.id}, ${secret.id}"`);
    expect(editor.body).toContain("秘密词条");
    // Without JavaScript: a plain post of ids; an unknown id is the field's localized error, the form kept.
    const token = await visitor.csrfToken();
    const failed = await visitor.postForm("/en/circles/1/write/article", {
      csrftoken: token,
      title: "Ids by hand",
      content: "Body",
      related_entries: `${open.id}, 99999999`,
    });
    expect(failed.statusCode).toBe(400);
    expect(failed.body).toContain("One of the related entries does not exist or is not yours to read");
    expect(failed.body).toContain(`value="${open.id}, 99999999"`);
    const published = await visitor.postForm("/en/circles/1/write/article", {
      csrftoken: token,
      title: "Ids by hand",
      content: "Body",
      related_entries: `${open.id}，${open.id}`,
    });
    expect(published.statusCode).toBe(302);
    const read = await visitor.get(published.headers.location as string);
    expect(read.body).toContain(`href="/en/circles/1/encyclopedia/${open.id}"`);
  });
});
