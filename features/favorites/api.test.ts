import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createCircle, createSignedInUser, createUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { events, favoriteFolders, favorites, subjectCounts } from "../../server/db/schema/index.ts";

interface Item {
  type: string;
  id: number;
  title: string;
  url: string | null;
  circle: { id: number; name: string } | null;
  folder_id: number;
  note: string;
  readable: boolean;
}

describe.each(databaseKinds)("favourites API on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  const keep = (visitor: Visitor, type: string, id: number, body?: Record<string, unknown>) =>
    visitor.request("PUT", `/api/subjects/${type}/${id}/favorite/`, { json: body ?? {} });
  const list = async (visitor: Visitor, query = "") => {
    const response = await visitor.get(`/api/favorites/${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { results: Item[]; next_cursor: string | null };
  };
  const folders = async (visitor: Visitor) =>
    (
      (await visitor.get("/api/favorite_folders/")).json() as {
        results: { id: number; name: string | null; is_default: boolean; count: number }[];
      }
    ).results;
  const favoriteCount = async (id: number) =>
    (
      await db()
        .select({ count: subjectCounts.favoriteCount })
        .from(subjectCounts)
        .where(and(eq(subjectCounts.subjectType, "writing"), eq(subjectCounts.subjectId, id)))
    )[0]?.count ?? 0;

  it("keeps a writing in the default folder made on first use, counts it once, tells the author, and takes it back", async () => {
    const author = await createUser(db());
    const writing = await createWriting(db(), author, { title: "收藏测试" });
    const { user, visitor } = await createSignedInUser(api.app, db());
    const kept = await keep(visitor, "writing", writing.id);
    expect(kept.statusCode, kept.body).toBe(200);
    const defaultFolder = (await folders(visitor))[0]!;
    expect(defaultFolder).toMatchObject({ is_default: true, name: null, count: 1 });
    expect(kept.json()).toEqual({ favorited: true, favorite_count: 1, folder_id: defaultFolder.id });
    // Again: nothing changes, nobody is told twice.
    expect((await keep(visitor, "writing", writing.id)).json()).toMatchObject({ favorite_count: 1 });
    const told = await db()
      .select({ recipients: events.recipientIds })
      .from(events)
      .where(and(eq(events.verb, "favorite.added"), eq(events.subjectId, writing.id), eq(events.actorId, user.id)));
    expect(told).toEqual([{ recipients: [author.id] }]);

    const page = await list(visitor);
    expect(page.results).toEqual([
      expect.objectContaining({
        type: "writing",
        id: writing.id,
        title: "收藏测试",
        url: `/circles/1/writing/${writing.id}`,
        readable: true,
      }),
    ]);
    expect(page.results[0]!.circle).toMatchObject({ id: 1 });

    const removed = await visitor.request("DELETE", `/api/subjects/writing/${writing.id}/favorite/`);
    expect(removed.json()).toEqual({ favorited: false, favorite_count: 0, folder_id: null });
    expect(await favoriteCount(writing.id)).toBe(0);
    expect((await list(visitor)).results).toEqual([]);
  });

  it("makes folders, moves and notes favourites, searches them, and a deleted folder's favourites move to the default one", async () => {
    const author = await createUser(db());
    const first = await createWriting(db(), author, { title: "勾股定理" });
    const second = await createWriting(db(), author, { title: "Fourier series" });
    const { visitor } = await createSignedInUser(api.app, db());
    const made = await visitor.post("/api/favorite_folders/", { name: "数学", is_public: true });
    expect(made.statusCode, made.body).toBe(201);
    const folder = made.json() as { id: number };
    expect((await keep(visitor, "writing", first.id, { folder_id: folder.id, note: "复习用" })).statusCode).toBe(200);
    expect((await keep(visitor, "writing", second.id)).statusCode).toBe(200);
    expect((await list(visitor, `?folder_id=${folder.id}`)).results.map((item) => item.id)).toEqual([first.id]);
    expect((await list(visitor, `?q=${encodeURIComponent("复习")}`)).results.map((item) => item.id)).toEqual([first.id]);
    expect((await list(visitor, "?q=fourier")).results.map((item) => item.id)).toEqual([second.id]);
    // A LIKE wildcard is a plain character.
    expect((await list(visitor, "?q=%25")).results).toEqual([]);

    const moved = await visitor.request("PATCH", `/api/favorites/writing/${second.id}/`, { json: { folder_id: folder.id, note: "好" } });
    expect(moved.statusCode, moved.body).toBe(204);
    expect((await list(visitor, `?folder_id=${folder.id}`)).results.map((item) => item.id)).toEqual([second.id, first.id]);

    const deleted = await visitor.request("DELETE", `/api/favorite_folders/${folder.id}/`);
    expect(deleted.json()).toEqual({ moved: 2 });
    const left = await folders(visitor);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ is_default: true, count: 2 });
    const defaultId = left[0]!.id;
    expect((await visitor.request("DELETE", `/api/favorite_folders/${defaultId}/`)).json()).toMatchObject({ code: "default_folder_fixed" });
    expect((await visitor.request("PATCH", `/api/favorite_folders/${defaultId}/`, { json: { name: "x" } })).statusCode).toBe(400);
  });

  it("keeps folders private to their owner and refuses what it must, never with a 500", async () => {
    const author = await createUser(db());
    const writing = await createWriting(db(), author);
    const { visitor: owner } = await createSignedInUser(api.app, db());
    const folder = (await owner.post("/api/favorite_folders/", { name: "私人" })).json() as { id: number };
    const { visitor: other } = await createSignedInUser(api.app, db());
    expect((await keep(other, "writing", writing.id, { folder_id: folder.id })).statusCode).toBe(404);
    expect((await other.request("DELETE", `/api/favorite_folders/${folder.id}/`)).statusCode).toBe(404);
    expect((await other.get(`/api/favorites/?folder_id=${folder.id}`)).statusCode).toBe(404);
    expect((await keep(new Visitor(api.app), "writing", writing.id)).statusCode).toBe(401);
    expect((await owner.post("/api/favorite_folders/", { name: "" })).statusCode).toBe(400);
    expect((await owner.post("/api/favorite_folders/", { name: "x".repeat(41) })).statusCode).toBe(400);
    expect((await keep(owner, "writing", writing.id, { note: "x".repeat(501) })).statusCode).toBe(400);
    const hidden = await createCircle(db(), { visibility: "members" });
    const secret = await createWriting(db(), author, { circleId: hidden.id });
    expect((await keep(owner, "writing", secret.id)).statusCode).toBe(404);
    expect((await owner.get("/api/favorites/?cursor=garbage")).statusCode).toBe(200);
  });

  it("counts exactly under concurrency, pages newest first, and a deleted writing leaves every folder", async () => {
    const { user: author, visitor: authorVisitor } = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), author);
    const { visitor } = await createSignedInUser(api.app, db());
    await visitor.csrfToken();
    const answers = await Promise.all(Array.from({ length: 10 }, () => keep(visitor, "writing", writing.id)));
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    expect(await favoriteCount(writing.id)).toBe(1);
    const defaults = await db().select().from(favoriteFolders).where(eq(favoriteFolders.isDefault, true));
    expect(new Set(defaults.map((folder) => folder.userId)).size).toBe(defaults.length);

    const many = await Promise.all(Array.from({ length: 22 }, () => createWriting(db(), author)));
    for (const item of many) await keep(visitor, "writing", item.id);
    const firstPage = await list(visitor);
    expect(firstPage.results).toHaveLength(20);
    const secondPage = await list(visitor, `?cursor=${firstPage.next_cursor}`);
    const seen = [...firstPage.results, ...secondPage.results].map((item) => item.id);
    expect(new Set(seen).size).toBe(23);
    expect(secondPage.next_cursor).toBeNull();

    expect((await authorVisitor.request("DELETE", `/api/writings/${writing.id}/`)).statusCode).toBeLessThan(300);
    expect(
      await db()
        .select()
        .from(favorites)
        .where(and(eq(favorites.subjectType, "writing"), eq(favorites.subjectId, writing.id))),
    ).toEqual([]);
  });
  it("shows a favourite hidden by moderation as hidden, without its title, to its readers; its author still sees it", async () => {
    const { user: author, visitor: authorVisitor } = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), author, { title: "将被隐藏的收藏" });
    const { visitor: reader } = await createSignedInUser(api.app, db());
    const { visitor: reporter } = await createSignedInUser(api.app, db());
    const { visitor: moderator } = await createSignedInUser(api.app, db(), { siteRole: "moderator" });
    expect((await keep(reader, "writing", writing.id)).statusCode).toBe(200);
    expect((await keep(authorVisitor, "writing", writing.id)).statusCode).toBe(200);
    const report = await reporter.post(`/api/subjects/writing/${writing.id}/reports/`, { reason: "spam" });
    expect(report.statusCode, report.body).toBe(201);
    const caseId = (report.json() as { case_id: number }).case_id;
    const resolved = await moderator.post(`/api/moderation/cases/${caseId}/resolve/`, { action: "hide" });
    expect(resolved.statusCode, resolved.body).toBe(200);

    const [item] = (await list(reader)).results;
    expect(item).toMatchObject({ id: writing.id, title: "", url: null, readable: false, hidden: true });
    expect(JSON.stringify(await list(reader))).not.toContain("将被隐藏的收藏");
    const [own] = (await list(authorVisitor)).results;
    expect(own).toMatchObject({ id: writing.id, title: "将被隐藏的收藏", readable: true, hidden: true });
  });
});
