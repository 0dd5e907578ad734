import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { createTestApi, type TestApi, Visitor } from "../../tests/support/api.ts";
import { addMember, createCircle, createSignedInUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";
import {
  adBillings,
  adCampaigns,
  adDailyCounts,
  attachments,
  dailyStats,
  ledgerAccounts,
  ledgerEntries,
  users,
} from "../../server/db/schema/index.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { checkLedger, ledgerIsConsistent } from "../ledger/check.ts";
import { flushAdEvents, recordAdEvent } from "./counting.ts";
import { readServedAd } from "./token.ts";
import { addDays } from "./campaigns.ts";

const today = shanghaiDay(new Date());
const tomorrow = addDays(today, 1);
/** Noon in Asia/Shanghai: pacing lets half the daily cap out by then. */
const noon = new Date(`${today}T04:00:00Z`);
const nextDay = new Date(`${tomorrow}T04:00:00Z`);
const bot = { "user-agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" };

describe.each(databaseKinds)("self-serve ads on %s", (kind) => {
  let api: TestApi;
  let clock = noon;
  beforeAll(async () => {
    api = await createTestApi(kind, { jobs: true, now: () => clock, env: { NODE_ENV: "test" } });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  let keys = 0;
  const key = () => ({ "idempotency-key": `ads-${Date.now()}-${(keys += 1)}` });

  async function advertiser(balance: number) {
    const member = await createSignedInUser(api.app, db());
    if (balance > 0) await grant(db(), member.user.id, "sinecoin", balance);
    const fileId = `adimage${member.user.id}x${(keys += 1)}`;
    await db().insert(attachments).values({ fileId, ownerId: member.user.id, purpose: "upload", contentType: "image/png", size: 100 });
    return { ...member, fileId };
  }
  const staff = () => createSignedInUser(api.app, db(), { siteRole: "admin" });

  async function campaign(owner: Awaited<ReturnType<typeof advertiser>>, body: Record<string, unknown> = {}) {
    const answer = await owner.visitor.request("POST", "/api/ads/campaigns/", {
      json: {
        title: "Learn Rust",
        text: "A gentle course, in Chinese and English.",
        image_file_id: owner.fileId,
        url: "https://example.com/rust",
        languages: ["zh-CN", "en"],
        pricing: { model: "cpm", price: 1000 },
        budget: 10,
        daily_cap: 10,
        starts_on: today,
        ends_on: today,
        ...body,
      },
      headers: key(),
    });
    expect(answer.statusCode, answer.body).toBe(201);
    return (answer.json() as { id: number; status: string }).id;
  }
  const approve = async (admin: Visitor, id: number) => admin.post(`/api/admin/ads/campaigns/${id}/approve/`, {});
  const held = async (id: number) => {
    const rows = await db()
      .select({ amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .where(eq(ledgerAccounts.key, `system:ad_campaign:${id}:sinecoin`));
    return rows.reduce((sum, row) => sum + row.amount, 0);
  };
  const slot = (visitor: Visitor, query = "placement=article&circle_id=1&language=zh-CN") => visitor.get(`/api/ads/slot/?${query}`);
  const counts = async (id: number) =>
    (
      await db()
        .select({
          served: sql<number>`sum(${adDailyCounts.served})::int`,
          viewable: sql<number>`sum(${adDailyCounts.viewable})::int`,
          clicks: sql<number>`sum(${adDailyCounts.clicks})::int`,
          filtered: sql<number>`sum(${adDailyCounts.filteredViewable} + ${adDailyCounts.filteredClicks})::int`,
        })
        .from(adDailyCounts)
        .where(eq(adDailyCounts.campaignId, id))
    )[0]!;
  const bill = async () => {
    clock = nextDay;
    try {
      await api.jobs!.runJobNow("bill-ads", { asOf: nextDay.toISOString() });
    } finally {
      clock = noon;
    }
  };
  const consistent = async () => {
    const report = await checkLedger(db());
    expect(report.mismatchedUsers).toEqual([]);
    expect(ledgerIsConsistent(report)).toBe(true);
  };

  it("shows nothing before approval, holds the whole budget at approval, and tells a rejection's reason", async () => {
    const owner = await advertiser(100);
    const admin = await staff();
    const id = await campaign(owner, { title: "Not yet", circle_ids: [1], budget: 40, daily_cap: 20 });
    expect((await owner.visitor.get(`/api/ads/campaigns/${id}/`)).json()).toMatchObject({ status: "pending_review", budget: 40 });
    const reader = new Visitor(api.app);
    for (let i = 0; i < 3; i += 1) {
      const answer = await slot(reader);
      if (answer.statusCode === 200) expect((answer.json() as { title: string }).title).not.toBe("Not yet");
    }
    expect((await approve(owner.visitor, id)).statusCode).toBe(403);
    expect(await held(id)).toBe(0);
    const approved = await approve(admin.visitor, id);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await held(id)).toBe(40);
    expect((await owner.visitor.get("/api/wallet/")).json()).toMatchObject({ sinecoin: 60 });
    expect((await approve(admin.visitor, id)).json()).toMatchObject({ code: "ad_not_pending" });

    const other = await campaign(owner, { title: "Refused" });
    expect((await admin.visitor.post(`/api/admin/ads/campaigns/${other}/reject/`, {})).json()).toMatchObject({ code: "reason_required" });
    const rejected = await admin.visitor.post(`/api/admin/ads/campaigns/${other}/reject/`, { reason: "Misleading claims" });
    expect(rejected.json()).toMatchObject({ status: "rejected", reject_reason: "Misleading claims" });
    const mine = (await owner.visitor.get("/api/ads/campaigns/")).json() as { results: { id: number; status: string }[] };
    expect(mine.results.map((row) => [row.id, row.status])).toEqual([
      [other, "rejected"],
      [id, "active"],
    ]);
    // Bad input is a localized 400, never a 500.
    const bad = await owner.visitor.request("POST", "/api/ads/campaigns/", {
      json: {
        title: "x".repeat(31),
        text: "t",
        image_file_id: owner.fileId,
        url: "javascript:alert(1)",
        languages: [],
        pricing: { model: "cpm", price: 1 },
        budget: 5,
        daily_cap: 9,
        starts_on: today,
        ends_on: today,
      },
      headers: key(),
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys((bad.json() as { fields: Record<string, string> }).fields)).toEqual(
      expect.arrayContaining(["title", "url", "languages"]),
    );
    await consistent();
  });

  it("never bills 11 when 50 readers at once are served a campaign with budget for 10 billable views; billing twice moves nothing", async () => {
    const owner = await advertiser(10);
    const admin = await staff();
    const id = await campaign(owner, { circle_ids: [2], title: "Budget ten" });
    await approve(admin.visitor, id);
    const readers = Array.from({ length: 50 }, () => new Visitor(api.app));
    const answers = await Promise.all(readers.map((reader) => slot(reader, "placement=article&circle_id=2&language=zh-CN")));
    const tokens = answers.filter((answer) => answer.statusCode === 200).map((answer) => (answer.json() as { token: string }).token);
    expect(tokens.length).toBeGreaterThan(0);
    expect(tokens.length).toBeLessThanOrEqual(10);
    await Promise.all(
      tokens.map((token, i) => readers[i]!.request("POST", "/api/ads/events/", { json: { token, type: "viewable" }, csrf: false })),
    );
    await flushAdEvents(db());
    expect(await counts(id)).toMatchObject({ served: tokens.length, viewable: tokens.length, filtered: 0 });
    await bill();
    const [first] = await db().select().from(adBillings).where(eq(adBillings.campaignId, id));
    expect(first!.spend).toBeLessThanOrEqual(10);
    expect(first!.spend).toBe(tokens.length);
    await bill();
    expect(await db().select().from(adBillings).where(eq(adBillings.campaignId, id))).toEqual([first]);
    const [row] = await db().select().from(adCampaigns).where(eq(adCampaigns.id, id));
    // The campaign ended with its day: spent plus released is the budget, the hold is empty.
    expect(row!.spent + row!.released).toBe(10);
    expect(row!.status).toBe(row!.spent === 10 ? "exhausted" : "ended");
    expect(await held(id)).toBe(0);
    await consistent();
  });

  it("counts a click only for a served ad, once per serve, and a click also counts its impression", async () => {
    const owner = await advertiser(100);
    const admin = await staff();
    const id = await campaign(owner, { circle_ids: [3], pricing: { model: "cpc", price: 2 }, budget: 50, daily_cap: 50 });
    await approve(admin.visitor, id);
    const reader = new Visitor(api.app);
    expect((await reader.get("/ads/click/forged.token")).statusCode).toBe(404);
    const answer = await slot(reader, "placement=question&circle_id=3&language=en");
    expect(answer.statusCode, answer.body).toBe(200);
    const { token, url } = answer.json() as { token: string; url: string };
    const click = await reader.get(`/ads/click/${token}`);
    expect(click.statusCode).toBe(302);
    expect(click.headers.location).toBe(url);
    await reader.get(`/ads/click/${token}`);
    await flushAdEvents(db());
    // The same served ad reported again (a second process holding it, a retried flush) counts nothing more.
    recordAdEvent(db(), readServedAd("test-secret", token)!, "click");
    await flushAdEvents(db());
    expect(await counts(id)).toMatchObject({ served: 1, clicks: 1, filtered: 0 });
    await bill();
    expect((await db().select().from(adBillings).where(eq(adBillings.campaignId, id)))[0]).toMatchObject({ spend: 2 });
    await consistent();
  });

  it("never bills filtered traffic: bots, the advertiser's own views, the page's author clicking", async () => {
    const owner = await advertiser(100);
    const admin = await staff();
    const author = await createSignedInUser(api.app, db(), { userType: "Official users" });
    const writing = await createWriting(db(), author.user, { circleId: 1 });
    const id = await campaign(owner, { circle_ids: [4], pricing: { model: "cpc", price: 3 }, budget: 60, daily_cap: 60 });
    await approve(admin.visitor, id);
    const query = `placement=article&circle_id=4&language=zh-CN&subject_type=writing&subject_id=${writing.id}`;
    const crawler = new Visitor(api.app, bot);
    const shownToBot = await slot(crawler, query);
    expect(shownToBot.statusCode).toBe(200);
    await crawler.get(`/ads/click/${(shownToBot.json() as { token: string }).token}`);
    const own = await slot(owner.visitor, query);
    await owner.visitor.get(`/ads/click/${(own.json() as { token: string }).token}`);
    const self = await slot(author.visitor, query);
    await author.visitor.get(`/ads/click/${(self.json() as { token: string }).token}`);
    await flushAdEvents(db());
    const rows = await db().select().from(adDailyCounts).where(eq(adDailyCounts.campaignId, id));
    expect(rows).toMatchObject([{ creatorId: author.user.id, served: 3, clicks: 3, filteredClicks: 3, filteredBot: 1, filteredSelf: 2 }]);
    expect((await owner.visitor.get(`/api/ads/campaigns/${id}/stats/?from=${today}&to=${today}`)).json()).toMatchObject({
      days: [{ day: today, served: 3, clicks: 3, billable: 0, filtered: 3, filtered_by: { bot: 1, self: 2 }, spend: 0 }],
    });
    await bill();
    expect((await db().select().from(adBillings).where(eq(adBillings.campaignId, id)))[0]).toMatchObject({ spend: 0, billableUnits: 0 });
    expect(await held(id)).toBe(0);
    expect((await owner.visitor.get("/api/wallet/")).json()).toMatchObject({ sinecoin: 100 });
    await consistent();
  });

  it("pays the participating creator their share and the platform the rest, adding up to the spend exactly", async () => {
    const owner = await advertiser(1000);
    const admin = await staff();
    const author = await createSignedInUser(api.app, db(), { userType: "Official users" });
    const plain = await createSignedInUser(api.app, db());
    const shared = await createWriting(db(), author.user, { circleId: 1 });
    const unshared = await createWriting(db(), plain.user, { circleId: 1 });
    const id = await campaign(owner, {
      circle_ids: [5],
      pricing: { model: "cpc", price: 7 },
      budget: 500,
      daily_cap: 100,
      ends_on: tomorrow,
    });
    await approve(admin.visitor, id);
    const clickOn = async (writingId: number) => {
      const reader = new Visitor(api.app);
      const answer = await slot(reader, `placement=article&circle_id=5&language=zh-CN&subject_type=writing&subject_id=${writingId}`);
      expect(answer.statusCode).toBe(200);
      await reader.get(`/ads/click/${(answer.json() as { token: string }).token}`);
    };
    for (let i = 0; i < 3; i += 1) await clickOn(shared.id);
    for (let i = 0; i < 2; i += 1) await clickOn(unshared.id);
    await flushAdEvents(db());
    await bill();
    const [billed] = await db().select().from(adBillings).where(eq(adBillings.campaignId, id));
    // 5 clicks × 7 = 35; the author's pages 3/5 of it (21), half of that rounded down (10) is theirs.
    expect(billed).toMatchObject({ billableUnits: 5, spend: 35, creatorsShare: 10, platformShare: 25 });
    expect(billed!.creatorsShare + billed!.platformShare).toBe(billed!.spend);
    const [creator] = await db().select({ sinecoin: users.sinecoin }).from(users).where(eq(users.id, author.user.id));
    expect(creator!.sinecoin).toBe(10);
    const [income] = await db()
      .select({ ads: dailyStats.incomeAds })
      .from(dailyStats)
      .where(and(eq(dailyStats.subjectType, "user"), eq(dailyStats.subjectId, author.user.id)));
    expect(income!.ads).toBe(10);
    expect(await held(id)).toBe(500 - 35);
    await consistent();
  });

  it("lets participants opt their pages out, and shows members no ads", async () => {
    const registered = await createSignedInUser(api.app, db());
    expect((await registered.visitor.get("/api/monetization/ads/")).statusCode).toBe(403);
    const author = await createSignedInUser(api.app, db(), { userType: "Official users" });
    expect((await author.visitor.get("/api/monetization/ads/")).json()).toEqual({ enabled: true, share_percent: 50 });
    const writing = await createWriting(db(), author.user, { circleId: 1 });
    const owner = await advertiser(100);
    const id = await campaign(owner, { circle_ids: [6], budget: 50, daily_cap: 50 });
    await approve((await staff()).visitor, id);
    const query = `placement=article&circle_id=6&language=zh-CN&subject_type=writing&subject_id=${writing.id}`;
    expect((await slot(new Visitor(api.app), query)).statusCode).toBe(200);
    const off = await author.visitor.request("PUT", "/api/monetization/ads/", { json: { enabled: false } });
    expect(off.json()).toEqual({ enabled: false, share_percent: 50 });
    expect((await slot(new Visitor(api.app), query)).statusCode).toBe(204);
    const vip = await createSignedInUser(api.app, db(), { userType: "VIP users" });
    expect((await slot(vip.visitor, "placement=article&circle_id=6&language=zh-CN")).statusCode).toBe(204);
  });

  it("sends a changed creative back to review: the approved one keeps showing, the change only once an admin approves what they saw", async () => {
    const circle = await createCircle(db());
    const owner = await advertiser(100);
    const admin = await staff();
    const query = `placement=article&circle_id=${circle.id}&language=zh-CN`;
    const id = await campaign(owner, { circle_ids: [circle.id], title: "First words", budget: 50, daily_cap: 50 });
    // Not approved yet: changed in place, still pending, nothing shown.
    const creative = { title: "Second words", text: "Better text.", image_file_id: owner.fileId, url: "https://example.com/second" };
    const early = await owner.visitor.request("PATCH", `/api/ads/campaigns/${id}/`, { json: creative });
    expect(early.json()).toMatchObject({ status: "pending_review", title: "Second words", pending_creative: null, revision: 1 });
    expect((await slot(new Visitor(api.app), query)).statusCode).toBe(204);
    // The admin approves the revision they saw; an older one is refused.
    expect((await admin.visitor.post(`/api/admin/ads/campaigns/${id}/approve/`, { revision: 0 })).json()).toMatchObject({
      code: "ad_changed",
    });
    expect((await admin.visitor.post(`/api/admin/ads/campaigns/${id}/approve/`, { revision: 1 })).statusCode).toBe(200);
    const shown = async () => {
      const answer = await slot(new Visitor(api.app), query);
      expect(answer.statusCode).toBe(200);
      return answer.json() as { title: string; url: string };
    };
    expect(await shown()).toMatchObject({ title: "Second words", url: "https://example.com/second" });

    // Approved: the change waits for review and the approved creative keeps showing.
    const changed = await owner.visitor.request("PATCH", `/api/ads/campaigns/${id}/`, {
      json: { ...creative, title: "Unreviewed claim", url: "https://example.org/elsewhere" },
    });
    expect(changed.json()).toMatchObject({
      status: "active",
      title: "Second words",
      pending_creative: { title: "Unreviewed claim", url: "https://example.org/elsewhere" },
      revision: 2,
    });
    expect(await shown()).toMatchObject({ title: "Second words" });
    const queue = (await admin.visitor.get("/api/admin/ads/campaigns/")).json() as { results: { id: number; revision: number }[] };
    expect(queue.results.find((row) => row.id === id)).toMatchObject({ revision: 2 });
    // Refused with a reason: the approved creative stays, the advertiser sees why.
    const refused = await admin.visitor.post(`/api/admin/ads/campaigns/${id}/reject/`, { reason: "Unverified claim", revision: 2 });
    expect(refused.json()).toMatchObject({ status: "active", pending_creative: null, creative_reject_reason: "Unverified claim" });
    expect(await shown()).toMatchObject({ title: "Second words" });
    // Changed again and approved: the new creative replaces the old, the hold is untouched.
    await owner.visitor.request("PATCH", `/api/ads/campaigns/${id}/`, { json: { ...creative, title: "Third words" } });
    expect(await shown()).toMatchObject({ title: "Second words" });
    const approved = await admin.visitor.post(`/api/admin/ads/campaigns/${id}/approve/`, { revision: 3 });
    expect(approved.json()).toMatchObject({ status: "active", title: "Third words", pending_creative: null, creative_reject_reason: null });
    expect(await shown()).toMatchObject({ title: "Third words" });
    expect(await held(id)).toBe(50);
    expect((await approve(admin.visitor, id)).json()).toMatchObject({ code: "ad_not_pending" });

    // Only the advertiser changes it; a half creative or a bad address is a localized 400.
    const stranger = await advertiser(0);
    expect((await stranger.visitor.request("PATCH", `/api/ads/campaigns/${id}/`, { json: creative })).statusCode).toBe(404);
    const half = await owner.visitor.request("PATCH", `/api/ads/campaigns/${id}/`, { json: { title: "Only a title", url: "ftp://x.y" } });
    expect(half.statusCode).toBe(400);
    expect(Object.keys((half.json() as { fields: Record<string, string> }).fields)).toEqual(
      expect.arrayContaining(["text", "image_file_id", "url"]),
    );
    const foreignImage = await owner.visitor.request("PATCH", `/api/ads/campaigns/${id}/`, {
      json: { ...creative, image_file_id: stranger.fileId },
    });
    expect(foreignImage.json()).toMatchObject({ code: "validation_failed", fields: { image_file_id: expect.any(String) } });

    // A rejected campaign changed goes back to review.
    const other = await campaign(owner, { circle_ids: [circle.id], title: "Refused once" });
    await admin.visitor.post(`/api/admin/ads/campaigns/${other}/reject/`, { reason: "Blurry image" });
    const again = await owner.visitor.request("PATCH", `/api/ads/campaigns/${other}/`, { json: { ...creative, title: "Fixed" } });
    expect(again.json()).toMatchObject({ status: "pending_review", reject_reason: null, title: "Fixed" });
    await consistent();
  });

  it("shows no ads on the pages of a circle its administrators mark ad-free", async () => {
    const circle = await createCircle(db());
    const founder = await createSignedInUser(api.app, db());
    await addMember(db(), circle.id, founder.user.id, "founder");
    const member = await createSignedInUser(api.app, db());
    await addMember(db(), circle.id, member.user.id, "member");
    const owner = await advertiser(100);
    const id = await campaign(owner, { circle_ids: [circle.id], budget: 50, daily_cap: 50 });
    await approve((await staff()).visitor, id);
    const query = `placement=article&circle_id=${circle.id}&language=zh-CN`;
    expect((await slot(new Visitor(api.app), query)).statusCode).toBe(200);
    expect((await founder.visitor.get(`/api/circles/${circle.id}/ads/`)).json()).toEqual({ ad_free: false });
    expect((await member.visitor.request("PUT", `/api/circles/${circle.id}/ads/`, { json: { ad_free: true } })).statusCode).toBe(403);
    expect((await founder.visitor.request("PUT", `/api/circles/${circle.id}/ads/`, { json: { ad_free: "yes" } })).statusCode).toBe(400);
    const marked = await founder.visitor.request("PUT", `/api/circles/${circle.id}/ads/`, { json: { ad_free: true } });
    expect(marked.json()).toEqual({ ad_free: true });
    for (let i = 0; i < 3; i += 1) expect((await slot(new Visitor(api.app), query)).statusCode).toBe(204);
    await founder.visitor.request("PUT", `/api/circles/${circle.id}/ads/`, { json: { ad_free: false } });
    expect((await slot(new Visitor(api.app), query)).statusCode).toBe(200);
  });
});
