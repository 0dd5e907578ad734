import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { ledgerKinds, type LedgerKind } from "../ledger/kinds.ts";
import { addDays } from "./range.ts";

type Figures = Record<string, number>;
type ContentAnswer = {
  days: (Figures & { day: string })[];
  totals: Figures;
  filtered: Figures;
  items: (Figures & { type: string; id: number; title: string; url: string })[];
};
type ProfitAnswer = { days: (Figures & { day: string })[]; totals: Figures; items: (Figures & { type: string; id: number })[] };

/** The creator's analysis (issue 36 "Creators earn", section Analytics). */
describe.each(databaseKinds)("creator analysis API on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const today = () => shanghaiDay(api.app.now());
  const like = (visitor: Visitor, id: number, reaction: "like" | null) =>
    reaction
      ? visitor.request("PUT", `/api/subjects/writing/${id}/reaction/`, { json: { reaction } })
      : visitor.request("DELETE", `/api/subjects/writing/${id}/reaction/`);

  it("is for the signed in only", async () => {
    const anonymous = new Visitor(api.app);
    for (const path of ["content/", "profit/", "content.csv", "profit.csv"])
      expect((await anonymous.get(`/api/creator/analysis/${path}`)).statusCode).toBe(401);
  });

  it("refuses bad ranges with a localized 400, and defaults to the last 30 days", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    for (const query of [
      "from=2026-13-01",
      "from=2026-02-30&to=2026-03-01",
      "from=2026-03-02&to=2026-03-01",
      "from=2024-01-01&to=2026-01-01",
      "to=yesterday",
    ]) {
      const answer = await visitor.get(`/api/creator/analysis/content/?${query}`);
      expect(answer.statusCode, query).toBe(400);
      expect(answer.json()).toMatchObject({ code: "invalid_range" });
      expect((await visitor.get(`/api/creator/analysis/profit.csv?${query}`)).statusCode).toBe(400);
    }
    const english = await visitor.request("GET", "/api/creator/analysis/profit/?from=2026-03-02&to=2026-03-01", {
      headers: { "accept-language": "en" },
    });
    const chinese = await visitor.request("GET", "/api/creator/analysis/profit/?from=2026-03-02&to=2026-03-01", {
      headers: { "accept-language": "zh-CN" },
    });
    expect(JSON.stringify(english.json())).not.toEqual(JSON.stringify(chinese.json()));
    const answer = (await visitor.get("/api/creator/analysis/content/")).json() as ContentAnswer;
    expect(answer.days).toHaveLength(30);
    expect(answer.days.at(-1)?.day).toBe(today());
    expect(answer.days[0]?.day).toBe(addDays(today(), -29));
  });

  it("counts what readers did: views (bots and repeats filtered), reads, likes toggled, favourites, comments, new followers", async () => {
    const creator = await createSignedInUser(api.app, db());
    const reader = await createSignedInUser(api.app, db());
    const other = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), creator.user, { title: "分析测试" });
    const untouched = await createWriting(db(), other.user);
    await reader.visitor.get(`/api/views/writing/${writing.id}/view.gif`);
    await reader.visitor.get(`/api/views/writing/${writing.id}/view.gif`);
    await reader.visitor.get(`/api/views/writing/${writing.id}/read.gif`);
    await new Visitor(api.app, { "user-agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" }).get(
      `/api/views/writing/${writing.id}/view.gif`,
    );
    await other.visitor.get(`/api/views/writing/${writing.id}/view.gif`);
    await other.visitor.get(`/api/views/writing/${untouched.id}/view.gif`);
    expect((await like(reader.visitor, writing.id, "like")).statusCode).toBe(200);
    expect((await like(other.visitor, writing.id, "like")).statusCode).toBe(200);
    expect((await like(other.visitor, writing.id, null)).statusCode).toBeLessThan(300);
    expect((await reader.visitor.request("PUT", `/api/subjects/writing/${writing.id}/favorite/`, { json: {} })).statusCode).toBe(200);
    expect((await reader.visitor.post(`/api/writings/${writing.id}/comments/`, { body: "写得好" })).statusCode).toBe(201);
    expect((await creator.visitor.post(`/api/writings/${writing.id}/comments/`, { body: "谢谢" })).statusCode).toBe(201);
    expect((await reader.visitor.post(`/api/Users/follow/${creator.user.username}/`)).statusCode).toBe(200);

    const answer = (await creator.visitor.get("/api/creator/analysis/content/?from=" + addDays(today(), -6))).json() as ContentAnswer;
    expect(answer.days).toHaveLength(7);
    const expected = { views: 2, reads: 1, likes: 1, favorites: 1, comments: 1, shares: 0, followers_gained: 1, filtered_views: 2 };
    expect(answer.days.at(-1)).toEqual({ day: today(), ...expected });
    expect(answer.totals).toEqual(expected);
    expect(answer.filtered).toEqual({ bots: 1, repeats: 1 });
    expect(answer.items).toEqual([
      {
        type: "writing",
        id: writing.id,
        title: "分析测试",
        url: expect.stringContaining(String(writing.id)),
        views: 2,
        reads: 1,
        likes: 1,
        favorites: 1,
        comments: 1,
      },
    ]);

    const piece = (
      await creator.visitor.get(`/api/creator/analysis/content/?subject_type=writing&subject_id=${writing.id}`)
    ).json() as ContentAnswer;
    expect(piece.totals).toEqual({ ...expected, followers_gained: 0 });
    // Only one's own content: another's piece answers like an unknown one.
    expect((await creator.visitor.get(`/api/creator/analysis/content/?subject_type=writing&subject_id=${untouched.id}`)).statusCode).toBe(
      404,
    );
    expect((await creator.visitor.get(`/api/creator/analysis/content/?subject_type=user&subject_id=${creator.user.id}`)).statusCode).toBe(
      404,
    );
    const othersView = (await other.visitor.get("/api/creator/analysis/content/")).json() as ContentAnswer;
    expect(othersView.totals.views).toBe(1);
    expect(othersView.items.map((item) => item.id)).toEqual([untouched.id]);
  });

  it("shows income by source per day and per piece, equal to the ledger", async () => {
    const creator = await createSignedInUser(api.app, db());
    const reader = await createSignedInUser(api.app, db());
    const first = await createWriting(db(), creator.user, { title: "打赏一", tipEnabled: true });
    const second = await createWriting(db(), creator.user, { title: "打赏二", tipEnabled: true });
    await grant(db(), reader.user.id, "sinecoin", 100);
    await grant(db(), creator.user.id, "sinecoin", 50);
    for (const [id, amount] of [
      [first.id, 12],
      [second.id, 5],
      [first.id, 3],
    ] as const) {
      const tipped = await reader.visitor.request("POST", `/api/subjects/writing/${id}/tips/`, {
        json: { amount },
        headers: { "idempotency-key": `analysis-tip-${kind}-${id}-${amount}` },
      });
      expect(tipped.statusCode, tipped.body).toBe(201);
    }
    const answer = (await creator.visitor.get("/api/creator/analysis/profit/")).json() as ProfitAnswer;
    expect(answer.totals).toEqual({ tips: 20, unlocks: 0, ads: 0, missions: 0, rewards: 0, total: 20 });
    expect(answer.days.at(-1)).toEqual({ day: today(), tips: 20, unlocks: 0, ads: 0, missions: 0, rewards: 0, total: 20 });
    expect(answer.items.map((item) => [item.id, item.tips, item.total])).toEqual([
      [first.id, 15, 15],
      [second.id, 5, 5],
    ]);
    // The ledger itself: every entry on the creator's sinecoin account of an income kind naming them its author.
    const ledger = await db().execute<{ kind: string; amount: number }>(sql`
      select t.kind, sum(e.amount)::int as amount from ledger_entries e join ledger_accounts a on a.id = e.account_id
        join ledger_transactions t on t.id = e.transaction_id
      where a.key = ${`user:${creator.user.id}:sinecoin`} and t.data->>'authorId' = ${String(creator.user.id)} group by t.kind`);
    const bySource: Figures = { tips: 0, unlocks: 0, ads: 0, missions: 0, rewards: 0, total: 0 };
    for (const row of (ledger as unknown as { rows: { kind: LedgerKind; amount: number }[] }).rows) {
      const source = ledgerKinds[row.kind].income?.source;
      if (!source) continue;
      bySource[source] += Number(row.amount);
      bySource.total += Number(row.amount);
    }
    expect(answer.totals).toEqual(bySource);
    expect(((await reader.visitor.get("/api/creator/analysis/profit/")).json() as ProfitAnswer).totals.total).toBe(0);
  });

  it("exports both tables as CSV with a byte-order mark and spreadsheet formulas escaped", async () => {
    const creator = await createSignedInUser(api.app, db());
    const reader = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), creator.user, { title: '=HYPERLINK("http://evil.example","点我")', tipEnabled: true });
    await reader.visitor.get(`/api/views/writing/${writing.id}/view.gif`);
    await grant(db(), reader.user.id, "sinecoin", 10);
    await reader.visitor.request("POST", `/api/subjects/writing/${writing.id}/tips/`, {
      json: { amount: 7 },
      headers: { "idempotency-key": `csv-tip-${kind}` },
    });
    for (const name of ["content", "profit"]) {
      const csv = await creator.visitor.get(`/api/creator/analysis/${name}.csv`);
      expect(csv.statusCode, csv.body).toBe(200);
      expect(csv.headers["content-type"]).toContain("text/csv");
      expect(csv.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      expect(csv.body).toContain(`"'=HYPERLINK(""http://evil.example"",""点我"")"`);
      expect(csv.body).not.toMatch(/(^|,)"?=HYPERLINK/m);
    }
    const english = await creator.visitor.request("GET", "/api/creator/analysis/content.csv", { headers: { "accept-language": "en" } });
    expect(english.body).toContain("Views");
  });
});
