import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createCircle, createUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { inArray, sql } from "drizzle-orm";
import { events, writings } from "../../server/db/schema/index.ts";
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
    await db()
      .update(writings)
      .set({ publishedAt: sql`now() - interval '20 days'` })
      .where(inArray(writings.id, [first.id, second.id, secret.id]));
    await rebuildIndex(db());
    const now = new Date(Date.now() + 1000);
    const hours = (count: number) => new Date(now.getTime() - count * 3600 * 1000);
    const like = (subjectId: number, at: Date) => ({
      actorId: reader.id,
      verb: "reaction.added",
      subjectType: "writing",
      subjectId,
      data: { reaction: "like" },
      createdAt: at,
    });
    // Last week: second ahead of first; this week: first ahead (2 likes and a favourite against 1 like).
    await db()
      .insert(events)
      .values([
        like(second.id, hours(24 * 9)),
        like(second.id, hours(24 * 9)),
        like(first.id, hours(24 * 10)),
        like(first.id, hours(30)),
        like(first.id, hours(20)),
        { ...like(first.id, hours(10)), verb: "favorite.added", data: { folderId: 1 } },
        like(second.id, hours(5)),
        like(secret.id, hours(5)),
        like(secret.id, hours(5)),
        like(secret.id, hours(5)),
        { actorId: reader.id, verb: "user.followed", subjectType: "user", subjectId: bob.id, data: {}, createdAt: hours(3) },
      ]);
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
});
