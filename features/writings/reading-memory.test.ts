import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { addCategory, addMember, createCircle, createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { readingData } from "./queries.ts";

/**
 * The reading page's content is remembered between requests (`taggedMemory`, under the page's
 * cache tags). These read it, change what it shows through the real API, and read again: every
 * change must show on the very next read, never a remembered copy.
 */
describe.each(databaseKinds)("remembered reading content on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("shows edits, a new language version, a renamed category, a new nickname, a follow and an unfollow at once", async () => {
    const author = await createSignedInUser(api.app, db());
    const reader = await createSignedInUser(api.app, db());
    const circle = await createCircle(db());
    await addMember(db(), circle.id, author.user.id, "founder");
    const category = await addCategory(db(), circle.id, { name: "几何" });
    const created = await author.visitor.post(`/api/circles/${circle.id}/writings/`, {
      title: "初稿",
      content: "正文",
      categories: [category.id],
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json() as { id: number };
    const read = async () => (await readingData(db(), reader.user.id, id))!;

    // Twice: the second read is the remembered one.
    expect((await read()).row.title).toBe("初稿");
    expect((await read()).categories).toEqual([{ id: category.id, name: "几何" }]);

    expect((await author.visitor.request("PATCH", `/api/writings/${id}/`, { json: { title: "定稿", version: 1 } })).statusCode).toBe(200);
    expect((await read()).row.title).toBe("定稿");

    const english = await author.visitor.post(`/api/circles/${circle.id}/writings/`, {
      title: "Final",
      content: "Text",
      language: "en",
      translation_of: id,
    });
    expect(english.statusCode, english.body).toBe(201);
    expect((await read()).versions.map((version) => version.language)).toEqual(["zh-CN", "en"]);

    expect(
      (await author.visitor.request("PATCH", `/api/circles/${circle.id}/categories/${category.id}/`, { json: { name: "平面几何" } }))
        .statusCode,
    ).toBe(200);
    expect((await read()).categories).toEqual([{ id: category.id, name: "平面几何" }]);

    expect((await author.visitor.request("PATCH", "/api/Users/profile/", { json: { nickname: "新的笔名" } })).statusCode).toBe(200);
    expect((await read()).author.nickname).toBe("新的笔名");

    expect((await read()).following).toBe(false);
    expect((await reader.visitor.post(`/api/Users/follow/${author.user.username}/`)).statusCode).toBe(200);
    expect((await read()).following).toBe(true);

    expect((await reader.visitor.request("DELETE", `/api/Users/follow/${author.user.username}/`)).statusCode).toBe(200);
    expect((await read()).following).toBe(false);

    // The author's own view never says "following"; a visitor's neither.
    expect((await readingData(db(), author.user.id, id))!.following).toBe(false);
    expect((await readingData(db(), null, id))!.following).toBe(false);

    expect((await author.visitor.request("DELETE", `/api/writings/${id}/`)).statusCode).toBe(204);
    expect(await readingData(db(), reader.user.id, id)).toBeNull();
  });
});
