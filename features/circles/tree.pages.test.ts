import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createCircle, createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";

/**
 * The circle tree page as plain HTML (no JavaScript): the top levels, closed branches as links
 * to `?open=<id>`, an opened branch down to the circle asked for, and the filter still showing
 * every match.
 */
describe.each(databaseKinds)("circle tree page on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("shows the top levels, opens a branch by link and closes it again, in both languages", async () => {
    const top = await createCircle(db(), { nameEn: "Tree top", nameZh: "树顶" });
    const middle = await createCircle(db(), { parentId: top.id, nameEn: "Tree middle", nameZh: "树中" });
    const sibling = await createCircle(db(), { parentId: top.id, nameEn: "Tree sibling", nameZh: "树旁" });
    const leaf = await createCircle(db(), { parentId: middle.id, nameEn: "Tree leaf", nameZh: "树叶" });
    const visitor = new Visitor(api.app);

    const closed = await visitor.get("/circles");
    expect(closed.statusCode).toBe(200);
    // The root and its children are shown; the grandchildren are not, a link opens their branch.
    expect(closed.body).toContain('href="/circles/1"');
    expect(closed.body).toContain(`href="/circles/${top.id}"`);
    expect(closed.body).not.toContain(`href="/circles/${middle.id}"`);
    expect(closed.body).not.toContain(`href="/circles/${leaf.id}"`);
    expect(closed.body).toContain(`href="/circles?open=${top.id}"`);
    expect(closed.body).toContain("展开树顶的 2 个子圈子");

    const opened = await new Visitor(api.app).get(`/en/circles?open=${middle.id}`);
    expect(opened.statusCode).toBe(200);
    for (const circle of [top, middle, sibling, leaf]) expect(opened.body).toContain(`href="/en/circles/${circle.id}"`);
    // The sibling's own branch stays closed (it has none); the opened ones offer to close.
    expect(opened.body).toContain("Hide the sub-circles of Tree middle");
    expect(opened.body).toContain(`href="/en/circles?open=${top.id}"`);
    expect(opened.body).toContain("Hide the sub-circles of Tree top");
    expect(opened.body).not.toContain(`href="/en/circles?open=${middle.id}"`);

    // A signed-in reader gets the same tree; an unknown or malformed branch shows the top levels.
    const { visitor: reader } = await createSignedInUser(api.app, db());
    expect((await reader.get(`/circles?open=${top.id}`)).body).toContain(`href="/circles/${middle.id}"`);
    for (const open of ["999999", "abc", "-1", "1e400"]) {
      const page = await visitor.get(`/circles?open=${open}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain(`href="/circles/${middle.id}"`);
    }
  });

  it("a filter shows every matching circle with its ancestors, without branch links", async () => {
    const top = await createCircle(db(), { nameEn: "Filter top", nameZh: "筛选顶" });
    const deep = await createCircle(db(), { parentId: top.id, nameEn: "Needle deep", nameZh: "深处的针" });
    const page = await new Visitor(api.app).get(`/en/circles?q=${encodeURIComponent("needle deep")}`);
    expect(page.body).toContain(`href="/en/circles/${deep.id}"`);
    expect(page.body).toContain(`href="/en/circles/${top.id}"`);
    expect(page.body).not.toContain("?open=");
  });
});
