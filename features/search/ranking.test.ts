import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createCircle, createUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { inArray } from "drizzle-orm";
import { favoriteFolders, favorites, follows, reactions, writings } from "../../server/db/schema/index.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { rebuildIndex } from "./indexer.ts";
import { ranking } from "./ranking.ts";

/** Rankings by the one Hot score over a period's engagement, with rank changes (issue 25). */
describe.each(databaseKinds)("rankings on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("ranks writings and creators by the period's engagement, shows rank changes, and keeps members-only circles to members", async () => {
    const circle = await createCircle(db());
    const closed = await createCircle(db(), { visibility: "members" });
    const [alice, bob, reader] = [await createUser(db()), await createUser(db()), await createUser(db())];
    const first = await createWriting(db(), alice, { circleId: circle.id });
    const second = await createWriting(db(), bob, { circleId: circle.id });
    const secret = await createWriting(db(), bob, { circleId: closed.id });
    // Noon in Shanghai today: the hours below fall on the days the comments say, whenever this runs.
    const now = new Date(`${shanghaiDay()}T12:00:00+08:00`);
    const hours = (count: number) => new Date(now.getTime() - count * 3600 * 1000);
    await db()
      .update(writings)
      .set({ publishedAt: hours(24 * 20) })
      .where(inArray(writings.id, [first.id, second.id, secret.id]));
    await rebuildIndex(db());
    const readers = await Promise.all(Array.from({ length: 4 }, () => createUser(db())));
    const like = (reader: number, subjectId: number, at: Date) => ({
      userId: readers[reader]!.id,
      subjectType: "writing",
      subjectId,
      kind: "like" as const,
      createdAt: at,
    });
    // Last week: second ahead of first; this week: first ahead (2 likes and a favourite against 1 like); today too.
    await db()
      .insert(reactions)
      .values([
        like(0, second.id, hours(24 * 9)),
        like(1, second.id, hours(24 * 9)),
        like(0, first.id, hours(24 * 10)),
        like(1, first.id, hours(30)),
        like(2, first.id, hours(6)),
        like(2, second.id, hours(5)),
        like(0, secret.id, hours(5)),
        like(1, secret.id, hours(5)),
        like(2, secret.id, hours(5)),
      ]);
    const [folder] = await db().insert(favoriteFolders).values({ userId: readers[3]!.id, isDefault: true }).returning();
    await db()
      .insert(favorites)
      .values({ userId: readers[3]!.id, subjectType: "writing", subjectId: first.id, folderId: folder!.id, createdAt: hours(10) });
    await db()
      .insert(follows)
      .values({ followerId: reader.id, followeeId: bob.id, createdAt: hours(3) });
    const week = await ranking(db(), null, { kind: "writing", period: "week", circleId: circle.id, now, locale: "zh-CN" });
    expect(week.map((row) => [row.id, row.rank, row.change])).toEqual([
      [first.id, 1, 1],
      [second.id, 2, -1],
    ]);
    const site = await ranking(db(), null, { kind: "writing", period: "week", now, locale: "zh-CN" });
    expect(site.map((row) => row.id)).not.toContain(secret.id);
    expect(await ranking(db(), null, { kind: "writing", period: "week", circleId: closed.id, now, locale: "zh-CN" })).toEqual([]);
    const creators = await ranking(db(), null, { kind: "creator", period: "week", now, locale: "en" });
    expect(creators.find((row) => row.id === bob.id)).toMatchObject({ likes: 1, followers: 1 });
    expect(creators.find((row) => row.id === alice.id)).toMatchObject({ likes: 2, followers: 0 });
    const day = await ranking(db(), null, { kind: "writing", period: "day", circleId: circle.id, now, locale: "zh-CN" });
    expect(day.map((row) => row.id)).toEqual([first.id, second.id]);
  });

  it("lists a writing's two language versions as one item, in the reader's language, linking the other", async () => {
    const circle = await createCircle(db());
    const [author, first, second] = [await createUser(db()), await createUser(db()), await createUser(db())];
    const chinese = await createWriting(db(), author, { circleId: circle.id, title: "欧拉恒等式" });
    const english = await createWriting(db(), author, { circleId: circle.id, title: "Euler's identity", language: "en" });
    await db()
      .update(writings)
      .set({ translationOf: chinese.id })
      .where(inArray(writings.id, [english.id]));
    await rebuildIndex(db());
    const now = new Date(Date.now() + 1000);
    const likedAt = new Date(now.getTime() - 3600 * 1000);
    await db()
      .insert(reactions)
      .values(
        [
          [first, english.id],
          [second, english.id],
          [first, chinese.id],
        ].map(([reader, subjectId]) => ({
          userId: (reader as { id: number }).id,
          subjectType: "writing",
          subjectId: subjectId as number,
          kind: "like" as const,
          createdAt: likedAt,
        })),
      );
    const zh = await ranking(db(), null, { kind: "writing", period: "week", circleId: circle.id, now, locale: "zh-CN" });
    // Language versions live at the first version's path plus the language.
    expect(zh.map((row) => [row.id, row.otherUrl])).toEqual([[chinese.id, `/circles/${circle.id}/writing/${chinese.id}/en`]]);
    const en = await ranking(db(), null, { kind: "writing", period: "week", circleId: circle.id, now, locale: "en" });
    expect(en.map((row) => [row.id, row.otherUrl])).toEqual([[english.id, `/circles/${circle.id}/writing/${chinese.id}`]]);
  });
});

/** `GET /api/ranking/`: the page's lists as JSON, paged by cursor, with the page's visibility (issue 25). */
describe.each(databaseKinds)("rankings API on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  interface Answer {
    type: string;
    period: string;
    circle_id: number | null;
    items: { rank: number; change: number | null; type: string; id: number; url: string; likes: number | null; followers: number | null }[];
    next_cursor: string | null;
  }
  const get = async (query: string, visitor = new Visitor(api.app)): Promise<Answer> => {
    const response = await visitor.get(`/api/ranking/${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Answer;
  };

  it("answers a circle's week of articles in pages of 20 by cursor, the most liked first, and nothing of a members-only circle to others", async () => {
    const circle = await createCircle(db());
    const closed = await createCircle(db(), { visibility: "members" });
    const [author, reader] = [await createUser(db()), await createUser(db())];
    const written = [];
    for (let index = 0; index < 22; index += 1) written.push(await createWriting(db(), author, { circleId: circle.id }));
    const secret = await createWriting(db(), author, { circleId: closed.id });
    await rebuildIndex(db());
    const liked = written[5]!;
    await db().insert(reactions).values({ userId: reader.id, subjectType: "writing", subjectId: liked.id, kind: "like" });

    const first = await get(`?type=writing&period=week&circle_id=${circle.id}`);
    expect(first).toMatchObject({ type: "writing", period: "week", circle_id: circle.id, next_cursor: "o20" });
    expect(first.items).toHaveLength(20);
    expect(first.items[0]).toMatchObject({ rank: 1, type: "writing", id: liked.id, likes: null, followers: null });
    expect(first.items.map((item) => item.rank)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    const second = await get(`?type=writing&period=week&circle_id=${circle.id}&cursor=o20`);
    expect(second.items.map((item) => item.rank)).toEqual([21, 22]);
    expect(second.next_cursor).toBeNull();
    const all = [...first.items, ...second.items].map((item) => item.id);
    expect(new Set(all)).toEqual(new Set(written.map((writing) => writing.id)));
    expect(first.items[0]!.url).toMatch(new RegExp(`/${liked.id}$`));
    expect(
      (await get(`?type=writing&period=week&circle_id=${circle.id}`, new Visitor(api.app, { "accept-language": "en" }))).items[0]!.url,
    ).toMatch(/^\/en\//);

    // Members-only: nothing for a visitor, neither in its own list nor site-wide.
    expect((await get(`?type=writing&period=week&circle_id=${closed.id}`)).items).toEqual([]);
    const siteWide = await get("?type=writing&period=month");
    expect(siteWide.items.map((item) => item.id)).not.toContain(secret.id);

    // Creators carry their figures; anything not understood is the default list.
    const creators = await get("?type=creator&period=day");
    expect(creators.items.find((item) => item.id === author.id)).toMatchObject({ type: "creator", likes: 1, followers: 0 });
    expect(await get("?type=bogus&period=year&cursor=zzz&circle_id=-4")).toMatchObject({
      type: "writing",
      period: "week",
      circle_id: null,
    });
  });
});
