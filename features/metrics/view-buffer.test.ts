import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { createTestApi, Visitor, browserUserAgent, type TestApi } from "../../tests/support/api.ts";
import { createUser, createWriting } from "../../tests/support/factories.ts";
import { oneDatabaseKind } from "../../tests/support/database.ts";
import { dailyStats, subjectViews, writings } from "../../server/db/schema/index.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { rollupDifferences } from "./rollups.ts";
import { ViewBuffer } from "./views.ts";

const log = { error: () => {} };

/** View beacons gathered in memory and written in batches (docs/features/metrics.md, "Views and reads"). */
describe.each(oneDatabaseKind)("the view buffer on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    // A minute between writes: nothing is written unless the test flushes or the app closes.
    api = await createTestApi(kind, { viewFlushMs: 60_000 });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const today = () => shanghaiDay();
  const figures = async (id: number) => {
    const [rollup] = await db()
      .select()
      .from(dailyStats)
      .where(and(eq(dailyStats.subjectType, "writing"), eq(dailyStats.subjectId, id), eq(dailyStats.day, today())));
    const [rows] = await db()
      .select({ n: sql<number>`count(*)::int`, hits: sql<number>`coalesce(sum(hits), 0)::int` })
      .from(subjectViews)
      .where(and(eq(subjectViews.subjectType, "writing"), eq(subjectViews.subjectId, id)));
    const [counter] = await db().select({ views: writings.views }).from(writings).where(eq(writings.id, id));
    return {
      views: rollup?.views ?? 0,
      reads: rollup?.reads ?? 0,
      repeats: rollup?.filteredRepeat ?? 0,
      bots: rollup?.filteredBot ?? 0,
      rows: rows!.n,
      hits: rows!.hits,
      counter: counter!.views,
    };
  };

  it("writes a batch of concurrent beacons as if each were written alone: none lost, none twice", async () => {
    const [first, second] = [await createWriting(db(), await createUser(db())), await createWriting(db(), await createUser(db()))];
    const buffer = new ViewBuffer(db(), { intervalMs: 60_000, log });
    const now = new Date();
    await Promise.all(
      Array.from({ length: 300 }, (_, index) =>
        // 100 visitors, each three times, on two writings; every tenth beacon a bot's.
        buffer.addView({ type: "writing", id: index % 2 === 0 ? first.id : second.id }, `v:buffer-${index % 100}`, index % 10 === 0, now),
      ),
    );
    // A read of a view still in the buffer, and one of a visitor who never viewed.
    await buffer.addRead({ type: "writing", id: first.id }, "v:buffer-2", now);
    await buffer.addRead({ type: "writing", id: first.id }, "v:buffer-nobody", now);
    expect(buffer.pending).toBeGreaterThan(0);
    expect(await figures(first.id)).toMatchObject({ views: 0, rows: 0 });
    await buffer.flush();
    expect(buffer.pending).toBe(0);
    await buffer.flush();
    await buffer.close();
    const [a, b] = [await figures(first.id), await figures(second.id)];
    // Even beacons go to the first writing: visitors 0, 2, … 98; the 30 beacons of visitors 0, 10, … 90 are bots'.
    expect(a).toEqual({ views: 40, reads: 1, repeats: 80, bots: 30, rows: 41, hits: 150, counter: 40 });
    expect(b).toEqual({ views: 50, reads: 0, repeats: 100, bots: 0, rows: 50, hits: 150, counter: 50 });
    expect(await rollupDifferences(db(), { from: today(), to: today() })).toEqual([]);
  });

  it("answers beacons at once and writes them when the interval comes or the server closes", async () => {
    const writing = await createWriting(db(), await createUser(db()));
    const visitors = Array.from({ length: 5 }, () => new Visitor(api.app, { "user-agent": browserUserAgent }));
    for (const visitor of visitors) {
      expect((await visitor.get(`/api/views/writing/${writing.id}/view.gif`)).statusCode).toBe(200);
      expect((await visitor.get(`/api/views/writing/${writing.id}/view.gif`)).statusCode).toBe(200);
    }
    await visitors[0]!.get(`/api/views/writing/${writing.id}/read.gif`);
    expect(await figures(writing.id)).toMatchObject({ views: 0, rows: 0 });
    await api.app.close();
    expect(await figures(writing.id)).toEqual({ views: 5, reads: 1, repeats: 5, bots: 0, rows: 5, hits: 10, counter: 5 });
  });
});
