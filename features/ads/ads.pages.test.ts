import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addMember, createCircle, createSignedInUser, createWriting } from "../../tests/support/factories.ts";
import { oneDatabaseKind } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";
import { attachments } from "../../server/db/schema/index.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { addDays } from "./campaigns.ts";
import { flushAdEvents } from "./counting.ts";

const today = shanghaiDay(new Date());
const noon = new Date(`${today}T04:00:00Z`);
const nextDay = new Date(`${addDays(today, 1)}T04:00:00Z`);

/**
 * The advertiser's journey through the pages as plain forms, in both languages: the campaign form,
 * the admin's review, a reader's click on an article's slot, and the next day's chart, bill and
 * the creator's opt-out page.
 */
describe.each(oneDatabaseKind)("ads pages on %s", (kind) => {
  let api: TestApi;
  let clock = noon;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true, jobs: true, now: () => clock });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? "";

  it("explains ads publicly in both languages and keeps /ads for everyone", async () => {
    const zh = await new Visitor(api.app).get("/ads");
    expect(zh.statusCode).toBe(200);
    expect(zh.body).toContain("在圈子投放广告");
    expect(zh.body).toContain("广告");
    const en = await new Visitor(api.app).get("/en/ads");
    expect(en.body).toContain("Advertise on Circles");
    expect(en.body).toContain("Start a campaign");
    expect((await new Visitor(api.app).get("/ads/me")).statusCode).toBe(302);
  });

  it("takes a campaign through the form, the admin's review, a reader's click and the next day's bill and chart", async () => {
    const advertiser = await createSignedInUser(api.app, db());
    await grant(db(), advertiser.user.id, "sinecoin", 200);
    await db()
      .insert(attachments)
      .values({ fileId: "adpagesimage1", ownerId: advertiser.user.id, purpose: "upload", contentType: "image/png", size: 10 });
    const form = (await advertiser.visitor.get("/ads/start")).body;
    expect(form).toContain("新建广告计划");
    expect((await advertiser.visitor.get("/en/ads/start")).body).toContain("Submit for review");
    const fields = {
      csrftoken: await advertiser.visitor.csrfToken(),
      idempotency_key: hidden(form, "idempotency_key"),
      intent: "create",
      title: "学 Rust",
      text: "一门温和的课程。",
      image_file_id: "adpagesimage1",
      url: "https://example.com/rust",
      languages: "zh-CN",
      model: "cpc",
      price: "5",
      budget: "100",
      daily_cap: "50",
      starts_on: today,
      ends_on: addDays(today, 3),
    };
    const refused = await advertiser.visitor.postForm("/ads/start", { ...fields, url: "ftp://example.com" });
    expect(refused.body).toContain("http:// 或 https://");
    const created = await advertiser.visitor.postForm("/ads/start", fields);
    expect(created.statusCode, created.body).toBe(303);
    expect(created.headers.location).toBe("/ads/me?created=1");
    const mine = (await advertiser.visitor.get("/ads/me?created=1")).body;
    expect(mine).toContain("待审核");

    const admin = await createSignedInUser(api.app, db(), { siteRole: "admin" });
    const review = (await admin.visitor.get("/en/admin/ads")).body;
    expect(review).toContain("学 Rust");
    const id = /name="campaign_id" value="(\d+)"/.exec(review)![1]!;
    const approved = await admin.visitor.postForm("/en/admin/ads", {
      csrftoken: await admin.visitor.csrfToken(),
      intent: "approve",
      campaign_id: id,
    });
    expect(approved.body).toContain("Approved: the budget is held.");
    expect((await advertiser.visitor.get("/api/wallet/")).json()).toMatchObject({ sinecoin: 100 });

    const author = await createSignedInUser(api.app, db(), { userType: "Official users" });
    const writing = await createWriting(db(), author.user, { circleId: 1 });
    const reader = new Visitor(api.app);
    const slot = await reader.get(
      `/api/ads/slot/?placement=article&circle_id=1&language=zh-CN&subject_type=writing&subject_id=${writing.id}`,
    );
    expect(slot.json()).toMatchObject({ title: "学 Rust", url: "https://example.com/rust" });
    const click = await reader.get(`/ads/click/${(slot.json() as { token: string }).token}`);
    expect(click.headers.location).toBe("https://example.com/rust");
    await flushAdEvents(db());

    clock = nextDay;
    try {
      await api.jobs!.runJobNow("bill-ads", { asOf: nextDay.toISOString() });
      const chart = (await advertiser.visitor.get("/en/ads/me")).body;
      expect(chart).toContain("<svg");
      expect(chart).toContain("Spent 5 of 100 sinecoin");
      const overview = (await advertiser.visitor.get("/ads/home")).body;
      expect(overview).toContain("当前冻结");
      const creator = (await author.visitor.get("/monetization/ads")).body;
      expect(creator).toContain("最近 30 天广告收益：2 圈币");
      const off = await author.visitor.postForm("/en/monetization/ads", { csrftoken: await author.visitor.csrfToken(), intent: "off" });
      expect(off.body).toContain("No ads on my pages");
    } finally {
      clock = noon;
    }
  });

  it("sends a changed ad back to review from /ads/me and lets a circle's founder mark its pages ad-free", async () => {
    const circle = await createCircle(db());
    const advertiser = await createSignedInUser(api.app, db());
    await grant(db(), advertiser.user.id, "sinecoin", 100);
    await db()
      .insert(attachments)
      .values({ fileId: "adpagesimage2", ownerId: advertiser.user.id, purpose: "upload", contentType: "image/png", size: 10 });
    const created = await advertiser.visitor.request("POST", "/api/ads/campaigns/", {
      json: {
        title: "Old words",
        text: "The approved text.",
        image_file_id: "adpagesimage2",
        url: "https://example.com/old",
        circle_ids: [circle.id],
        languages: ["en"],
        pricing: { model: "cpc", price: 1 },
        budget: 50,
        daily_cap: 50,
        starts_on: today,
        ends_on: today,
      },
      headers: { "idempotency-key": `ads-pages-${Date.now()}` },
    });
    const id = String((created.json() as { id: number }).id);
    const admin = await createSignedInUser(api.app, db(), { siteRole: "admin" });
    await admin.visitor.post(`/api/admin/ads/campaigns/${id}/approve/`, {});

    const changed = await advertiser.visitor.postForm("/en/ads/me", {
      csrftoken: await advertiser.visitor.csrfToken(),
      intent: "creative",
      campaign_id: id,
      image_file_id: "adpagesimage2",
      title: "New words",
      text: "The changed text.",
      url: "https://example.com/new",
    });
    expect(changed.body).toContain("Your change was submitted for review.");
    expect(changed.body).toContain("A change is waiting for review: “New words”.");
    const slotQuery = `/api/ads/slot/?placement=article&circle_id=${circle.id}&language=en`;
    expect((await new Visitor(api.app).get(slotQuery)).json()).toMatchObject({ title: "Old words" });
    const refused = await advertiser.visitor.postForm("/ads/me", {
      csrftoken: await advertiser.visitor.csrfToken(),
      intent: "creative",
      campaign_id: id,
      image_file_id: "adpagesimage2",
      title: "New words",
      text: "The changed text.",
      url: "javascript:alert(1)",
    });
    expect(refused.body).toContain("http:// 或 https://");

    const review = (await admin.visitor.get("/admin/ads")).body;
    expect(review).toContain("待审核的修改");
    expect(review).toContain("New words");
    const approved = await admin.visitor.postForm("/en/admin/ads", {
      csrftoken: await admin.visitor.csrfToken(),
      intent: "approve",
      campaign_id: id,
      revision: /name="revision" value="(\d+)"/.exec(review)![1]!,
      change: "1",
    });
    expect(approved.body).toContain("Approved: the new ad replaces the old one.");
    expect((await new Visitor(api.app).get(slotQuery)).json()).toMatchObject({ title: "New words", url: "https://example.com/new" });

    const founder = await createSignedInUser(api.app, db());
    await addMember(db(), circle.id, founder.user.id, "founder");
    const settings = (await founder.visitor.get(`/en/circles/${circle.id}/settings`)).body;
    expect(settings).toContain("No ads on this circle&#x27;s pages");
    const marked = await founder.visitor.postForm(`/en/circles/${circle.id}/settings`, {
      csrftoken: await founder.visitor.csrfToken(),
      intent: "ads",
      ad_free: "on",
    });
    expect(marked.body).toContain("Saved.");
    expect((await new Visitor(api.app).get(slotQuery)).statusCode).toBe(204);
    expect((await founder.visitor.get(`/circles/${circle.id}/settings`)).body).toMatch(/name="ad_free" checked=""/);
  });
});
