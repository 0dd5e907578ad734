import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import "../features/registrations.ts";
import { buildApp } from "../server/app.ts";
import { loadConfig } from "../server/config.ts";
import { openEmbeddedDatabase, openServerDatabase } from "../server/db/client.ts";
import { dailyStats, subjectViews, writings } from "../server/db/schema/index.ts";
import { shanghaiDay } from "../common/locale.ts";
import { createCircle, createUser, createWriting } from "../tests/support/factories.ts";
import { creatorAnalysis } from "../features/metrics/analysis.ts";
import { rollupDifferences } from "../features/metrics/rollups.ts";

/**
 * `npm run bench -- --views`: (a) view beacons through the app on one process (`inject`, no
 * sockets, so the figure is the beacon's own cost), gathered by the app's view buffer and written
 * every second as the server does: beacons per second with 50 in flight (answered, and until the
 * last batch is written when the app closes), and that the rollup equals the rows made and the
 * raw records (none lost, none doubled); (b) a creator's 365-day analysis
 * (`creatorAnalysis`) over rollups of `BENCH_SUBJECTS` subjects (default 40, about the most
 * pieces a creator of the scale data has: 100,000 writings among 10,000 users, with books and
 * entries) × 365 days, every piece with figures every day, among 20 other creators of the same
 * size: the median and p99 of 50 runs (`BENCH_SUBJECTS=500` is a creator far above the scale). Embedded store by default;
 * `BENCH_DATABASE_URL` runs it on PostgreSQL (a scratch database it empties first).
 */
const beacons = Number(process.env.BENCH_BEACONS ?? 10_000);
const subjects = Number(process.env.BENCH_SUBJECTS ?? 40);
const browser = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";

export async function runViewsBench(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "circles-views-bench-"));
  const url = process.env.BENCH_DATABASE_URL;
  const database = url ? await openServerDatabase(url) : await openEmbeddedDatabase(path.join(dataDir, "db"));
  await database.migrate();
  const db = database.db;
  const app = await buildApp({ config: loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: "bench-secret" }), database });
  await app.ready();
  let closed = false;
  try {
    const author = await createUser(db);
    const writing = await createWriting(db, author, { circleId: (await createCircle(db, { parentId: null })).id });
    const started = performance.now();
    let next = 0;
    const worker = async () => {
      while (next < beacons) {
        const index = (next += 1);
        // Every fifth beacon repeats an earlier visitor: a repeat, not a view.
        const visitor = index % 5 === 0 ? index - 1 : index;
        await app.inject({
          method: "GET",
          url: `/api/views/writing/${writing.id}/view.gif`,
          headers: { "user-agent": browser, cookie: `vid=bench-visitor-${String(visitor).padStart(8, "0")}` },
        });
      }
    };
    await Promise.all(Array.from({ length: 50 }, worker));
    const seconds = (performance.now() - started) / 1000;
    // Closing the app writes what the buffer still holds (as a server's shutdown does).
    await app.close();
    closed = true;
    const written = (performance.now() - started) / 1000;
    const [rows] = await db
      .select({ n: sql<number>`count(*)::int`, hits: sql<number>`sum(hits)::int` })
      .from(subjectViews)
      .where(eq(subjectViews.subjectId, writing.id));
    const [rollup] = await db
      .select()
      .from(dailyStats)
      .where(and(eq(dailyStats.subjectType, "writing"), eq(dailyStats.subjectId, writing.id), eq(dailyStats.day, shanghaiDay())));
    const [counter] = await db.select({ views: writings.views }).from(writings).where(eq(writings.id, writing.id));
    const exact = rollup!.views === rows!.n && rollup!.views + rollup!.filteredRepeat === beacons && counter!.views === rows!.n;
    const differences = await rollupDifferences(db);
    console.log(
      `view beacons: ${beacons} answered in ${seconds.toFixed(1)} s = ${Math.round(beacons / seconds)}/s, written in ${written.toFixed(1)} s = ${Math.round(beacons / written)}/s; views ${rollup!.views}, repeats ${rollup!.filteredRepeat}, rows ${rows!.n}, hits ${rows!.hits}: ${exact && differences.length === 0 ? "exact (rollup = raw)" : "MISMATCH"}`,
    );

    // Rollups of 21 creators × `subjects` subjects × 365 days, written directly (the analysis reads only them).
    const creators = [author.id, ...(await Promise.all(Array.from({ length: 20 }, () => createUser(db)))).map((user) => user.id)];
    for (const [index, creator] of creators.entries()) {
      await db.execute(sql`
        insert into daily_stats (subject_type, subject_id, day, author_id, views, likes, comments)
        select 'writing', ${1_000_000 + index * subjects} + s, current_date - d, ${creator}, (s + d) % 17, (s * d) % 5, d % 3
        from generate_series(1, ${subjects}) s, generate_series(0, 364) d`);
    }
    await db.execute(sql`vacuum analyze daily_stats`);
    const range = { from: shanghaiDay(new Date(Date.now() - 364 * 86_400_000)), to: shanghaiDay() };
    const times: number[] = [];
    let days = 0;
    for (let run = 0; run < 50; run += 1) {
      const start = performance.now();
      days = (await creatorAnalysis(db, author.id, range)).length;
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    console.log(
      `creator 365-day analysis over ${(creators.length * subjects * 365).toLocaleString("en")} rollup rows (${subjects} subjects each): ${days} days, median ${times[25]!.toFixed(1)} ms, p99 ${times[49]!.toFixed(1)} ms`,
    );
  } finally {
    if (!closed) await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
