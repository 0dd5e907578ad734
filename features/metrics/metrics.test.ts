import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createCircle, createSignedInUser, createUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";
import { dailyStats, events, subjectViews, writings } from "../../server/db/schema/index.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { rebuildIndex } from "../search/indexer.ts";
import { ranking } from "../search/ranking.ts";
import { creatorStats } from "../creator/stats.ts";
import { creatorAnalysis } from "./analysis.ts";
import { allDays, pruneEvents, rebuildRollups, rollupDifferences } from "./rollups.ts";

const botAgent = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

/** Counting that cannot be inflated, and the daily rollups (issue 33, docs/features/metrics.md). */
describe.each(databaseKinds)("metrics on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const today = () => shanghaiDay();
  const rollup = async (type: string, id: number) => {
    const [row] = await db()
      .select()
      .from(dailyStats)
      .where(and(eq(dailyStats.subjectType, type), eq(dailyStats.subjectId, id), eq(dailyStats.day, today())));
    return row;
  };

  it("counts like → unlike → like as one like in the rollups, the ranking and the creator desk", async () => {
    const circle = await createCircle(db());
    const author = await createUser(db());
    const writing = await createWriting(db(), author, { circleId: circle.id });
    await rebuildIndex(db());
    const { visitor: reader } = await createSignedInUser(api.app, db());
    const react = (method: "PUT" | "DELETE") =>
      reader.request(method, `/api/subjects/writing/${writing.id}/reaction/`, method === "PUT" ? { json: { reaction: "like" } } : {});
    for (const method of ["PUT", "DELETE", "PUT", "PUT"] as const) expect((await react(method)).statusCode).toBe(200);
    expect((await rollup("writing", writing.id))?.likes).toBe(1);
    const rows = await ranking(db(), null, { kind: "creator", period: "day", locale: "en" });
    expect(rows.find((row) => row.id === author.id)?.likes).toBe(1);
    expect((await creatorStats(db(), author.id)).recent[7].likes).toBe(1);
    expect(await rollupDifferences(db(), { from: today(), to: today() })).toEqual([]);
  });

  it("counts a view once per visitor and day, files bots and repeats apart with their reason, and marks reads", async () => {
    const writing = await createWriting(db(), await createUser(db()));
    const reader = new Visitor(api.app);
    const bot = new Visitor(api.app, { "user-agent": botAgent });
    for (let index = 0; index < 3; index += 1) expect((await reader.get(`/api/views/writing/${writing.id}/view.gif`)).statusCode).toBe(200);
    await bot.get(`/api/views/writing/${writing.id}/view.gif`);
    await bot.get(`/api/writings/${writing.id}/view.gif`);
    // A read needs its view first; a second read beacon adds nothing.
    await new Visitor(api.app).get(`/api/views/writing/${writing.id}/read.gif`);
    await reader.get(`/api/views/writing/${writing.id}/read.gif`);
    await reader.get(`/api/views/writing/${writing.id}/read.gif`);
    expect(await rollup("writing", writing.id)).toMatchObject({ views: 1, reads: 1, filteredRepeat: 2, filteredBot: 2 });
    const [row] = await db().select({ views: writings.views }).from(writings).where(eq(writings.id, writing.id));
    expect(row!.views).toBe(1);
    const botRows = await db()
      .select()
      .from(subjectViews)
      .where(and(eq(subjectViews.subjectId, writing.id), eq(subjectViews.bot, true)));
    expect(botRows).toMatchObject([{ visitor: "bot", hits: 2 }]);
    // Unknown kinds and ids answer the pixel and count nothing.
    expect((await reader.get("/api/views/nothing/1/view.gif")).statusCode).toBe(200);
    expect((await reader.get("/api/views/writing/2000000000/view.gif")).statusCode).toBe(200);
  });

  it("keeps rollups equal to the raw records after a mixed sequence, and a rebuild gives the same numbers", async () => {
    const author = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), author.user, { tipEnabled: true });
    const fans = [await createSignedInUser(api.app, db()), await createSignedInUser(api.app, db())];
    const [first, second] = fans.map((fan) => fan.visitor);
    await grant(db(), fans[0]!.user.id, "sinecoin", 50);
    const subject = `/api/subjects/writing/${writing.id}`;
    await first!.get(`/api/views/writing/${writing.id}/view.gif`);
    await first!.get(`/api/views/writing/${writing.id}/read.gif`);
    await second!.get(`/api/views/writing/${writing.id}/view.gif`);
    await first!.request("PUT", `${subject}/reaction/`, { json: { reaction: "like" } });
    await first!.request("DELETE", `${subject}/reaction/`);
    await first!.request("PUT", `${subject}/reaction/`, { json: { reaction: "like" } });
    await second!.request("PUT", `${subject}/reaction/`, { json: { reaction: "dislike" } });
    await second!.request("PUT", `${subject}/reaction/`, { json: { reaction: "like" } });
    await first!.request("PUT", `${subject}/favorite/`, { json: {} });
    await second!.request("PUT", `${subject}/favorite/`, { json: {} });
    await second!.request("DELETE", `${subject}/favorite/`);
    expect((await first!.post(`/api/writings/${writing.id}/comments/`, { body: "好文" })).statusCode).toBe(201);
    expect((await author.visitor.post(`/api/writings/${writing.id}/comments/`, { body: "谢谢" })).statusCode).toBe(201);
    await first!.post(`${subject}/share/`, {});
    await first!.post(`${subject}/share/`, {});
    await first!.post(`/api/Users/follow/${author.user.username}/`);
    await second!.post(`/api/Users/follow/${author.user.username}/`);
    await second!.request("DELETE", `/api/Users/follow/${author.user.username}/`);
    const tipped = await first!.request("POST", `${subject}/tips/`, {
      json: { amount: 7 },
      headers: { "idempotency-key": "metrics-tip-1" },
    });
    expect(tipped.statusCode, tipped.body).toBe(201);

    expect(await rollupDifferences(db())).toEqual([]);
    const days = await creatorAnalysis(db(), author.user.id, { from: today(), to: today() });
    expect(days).toEqual([
      {
        day: today(),
        views: 2,
        reads: 1,
        likes: 2,
        favorites: 1,
        comments: 1,
        shares: 1,
        followers: 1,
        filteredViews: 0,
        income: { tips: 7, unlocks: 0, ads: 0, missions: 0, rewards: 0 },
      },
    ]);
    // Spoil a rollup: the check names it, the rebuild restores the raw numbers.
    await db()
      .update(dailyStats)
      .set({ likes: sql`${dailyStats.likes} + 5` })
      .where(and(eq(dailyStats.subjectType, "writing"), eq(dailyStats.subjectId, writing.id)));
    expect(await rollupDifferences(db(), { from: today(), to: today() })).toEqual([
      { subjectType: "writing", subjectId: writing.id, day: today(), figure: "likes", rollup: 7, raw: 2 },
    ]);
    await rebuildRollups(db(), allDays);
    expect(await rollupDifferences(db())).toEqual([]);
    expect(await creatorAnalysis(db(), author.user.id, { from: today(), to: today() })).toEqual(days);
  });

  it("prunes only events older than the window, and keeps the verbs pages read however old", async () => {
    const user = await createUser(db());
    const old = new Date(Date.now() - 500 * 86_400_000);
    const [stale, kept, recent] = await db()
      .insert(events)
      .values([
        { actorId: user.id, verb: "reaction.added", subjectType: "writing", subjectId: 1, data: { reaction: "like" }, createdAt: old },
        { actorId: user.id, verb: "user.registered", subjectType: "user", subjectId: user.id, createdAt: old },
        { actorId: user.id, verb: "reaction.added", subjectType: "writing", subjectId: 1, data: { reaction: "like" } },
      ])
      .returning({ id: events.id });
    const { deleted } = await pruneEvents(db(), { batchSize: 1 });
    expect(deleted).toBeGreaterThanOrEqual(1);
    const left = new Set((await db().select({ id: events.id }).from(events)).map((row) => row.id));
    expect(left.has(stale!.id)).toBe(false);
    expect(left.has(kept!.id)).toBe(true);
    expect(left.has(recent!.id)).toBe(true);
    expect((await pruneEvents(db())).deleted).toBe(0);
  });
});
