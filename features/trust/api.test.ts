import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, newUser, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createQuestion, createSignedInUser, createUser, createWriting, signedInVisitor } from "../../tests/support/factories.ts";
import { grant } from "../../tests/support/money.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { auditLog, deviceSightings, questions, trustRings, trustVerdicts, users } from "../../server/db/schema/index.ts";
import { dailyLimits } from "./limits.ts";
import { burstLimit } from "./verdicts.ts";
import { scoreParts } from "./score.ts";

describe.each(databaseKinds)("trust & safety on %s", (kind) => {
  let api: TestApi;
  let admin: Visitor;
  let moderator: Visitor;
  let member: Visitor;
  beforeAll(async () => {
    api = await createTestApi(kind, { jobs: true });
    const a = await createSignedInUser(api.app, db(), { username: `trust_boss_${kind}` });
    await db().update(users).set({ siteRole: "admin" }).where(eq(users.id, a.user.id));
    admin = a.visitor;
    const m = await createSignedInUser(api.app, db());
    await db().update(users).set({ siteRole: "moderator" }).where(eq(users.id, m.user.id));
    moderator = m.visitor;
    member = (await createSignedInUser(api.app, db())).visitor;
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  let keys = 0;
  const like = (visitor: Visitor, writingId: number) =>
    visitor.request("PUT", `/api/subjects/writing/${writingId}/reaction/`, { json: { reaction: "like" } });
  const tip = (visitor: Visitor, writingId: number, amount = 5) =>
    visitor.request("POST", `/api/subjects/writing/${writingId}/tips/`, {
      json: { amount },
      headers: { "idempotency-key": `trust-tip-${kind}-${(keys += 1)}` },
    });
  const openRings = async () =>
    (
      (await admin.get("/api/admin/trust/rings/")).json() as {
        results: { id: number; members: { id: number }[]; evidence: Record<string, unknown> }[];
      }
    ).results;

  it("keeps the trust and ledger routes to admins: visitor 401, user and moderator 403", async () => {
    const target = await createUser(db());
    const routes: { method: string; url: string; json?: unknown; status: number }[] = [
      { method: "GET", url: "/api/admin/trust/rings/", status: 200 },
      { method: "POST", url: "/api/admin/trust/rings/999999/dismiss/", json: { reason: "harmless" }, status: 404 },
      { method: "GET", url: "/api/admin/ledger/corrections/", status: 200 },
      {
        method: "POST",
        url: "/api/admin/ledger/corrections/",
        json: { user_id: target.id, currency: "gold", amount: 1, reason: "lost check-in" },
        status: 201,
      },
      { method: "POST", url: "/api/admin/ledger/corrections/999999/approve/", json: { reason: "ok" }, status: 404 },
      { method: "POST", url: "/api/admin/ledger/corrections/999999/reject/", json: { reason: "no" }, status: 404 },
    ];
    for (const route of routes) {
      const ask = (visitor: Visitor) => visitor.request(route.method, route.url, route.json === undefined ? {} : { json: route.json });
      expect((await ask(new Visitor(api.app))).statusCode, `visitor ${route.url}`).toBe(401);
      for (const [who, visitor] of [
        ["user", member],
        ["moderator", moderator],
      ] as const) {
        const refused = await ask(visitor);
        expect([refused.statusCode, refused.json().code], `${who} ${route.method} ${route.url}`).toEqual([403, "forbidden"]);
      }
      expect((await ask(admin)).statusCode, `admin ${route.method} ${route.url}`).toBe(route.status);
    }
  });

  it("finds a planted ring of 5 accounts tipping and liking each other and leaves 50 ordinary users alone", async () => {
    // The ring: each writes one piece, likes and tips the four others'.
    const ring = await Promise.all(Array.from({ length: 5 }, () => createSignedInUser(api.app, db())));
    const ringWritings = await Promise.all(ring.map((account) => createWriting(db(), account.user, { tipEnabled: true })));
    for (const account of ring) await grant(db(), account.user.id, "sinecoin", 100);
    for (const [i, account] of ring.entries()) {
      for (const [j, writing] of ringWritings.entries()) {
        if (i === j) continue;
        expect((await like(account.visitor, writing.id)).statusCode).toBe(200);
        const tipped = await tip(account.visitor, writing.id);
        expect(tipped.statusCode, tipped.body).toBe(201);
      }
    }
    // 50 ordinary users: 20 of them write; everyone likes three pieces spread over the authors,
    // and a few friends like each other once.
    const ordinary = await Promise.all(Array.from({ length: 50 }, () => createUser(db())));
    const visitors = await Promise.all(ordinary.map((user) => signedInVisitor(api.app, db(), user)));
    const pieces = await Promise.all(ordinary.slice(0, 20).map((user) => createWriting(db(), user)));
    for (const [i, visitor] of visitors.entries()) {
      for (const step of [1, 7, 13]) {
        const piece = pieces[(i * 3 + step) % pieces.length]!;
        if (piece.authorId === ordinary[i]!.id) continue;
        expect((await like(visitor, piece.id)).statusCode).toBe(200);
      }
    }
    expect((await like(visitors[0]!, pieces[1]!.id)).statusCode).toBe(200);
    expect((await like(visitors[1]!, pieces[0]!.id)).statusCode).toBe(200);

    const [run] = await api.jobs!.runJobNow("find-rings");
    expect(run!.outcome).toBe("completed");
    const found = await openRings();
    const ringIds = ring.map((account) => account.user.id).sort((a, b) => a - b);
    const planted = found.find((candidate) => candidate.members.map((m) => m.id).join(",") === ringIds.join(","));
    expect(planted).toBeDefined();
    expect(planted!.evidence).toMatchObject({ inside: 40, given: 40, inside_share: 1 });
    expect((planted!.evidence.pairs as unknown[]).length).toBe(20);
    const ordinaryIds = new Set(ordinary.map((user) => user.id));
    expect(found.filter((candidate) => candidate.members.some((m) => ordinaryIds.has(m.id)))).toEqual([]);

    // Dismissing needs a reason, is audited, and stands when the job finds the ring again.
    const blank = await admin.post(`/api/admin/trust/rings/${planted!.id}/dismiss/`, {});
    expect([blank.statusCode, blank.json().code]).toEqual([400, "reason_required"]);
    expect((await admin.post(`/api/admin/trust/rings/${planted!.id}/dismiss/`, { reason: "a study group" })).statusCode).toBe(200);
    const [row] = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `ring:${planted!.id}`));
    expect(row).toMatchObject({ action: "ring.dismiss", reason: "a study group" });
    await api.jobs!.runJobNow("find-rings");
    const [again] = await db().select().from(trustRings).where(eq(trustRings.id, planted!.id));
    expect(again!.status).toBe("dismissed");
    expect((await openRings()).some((candidate) => candidate.id === planted!.id)).toBe(false);
  });

  it("remembers device cookies, and a like between accounts of one device or by oneself is not counted", async () => {
    const device = new Visitor(api.app, {}, { remoteAddress: "203.0.113.77" });
    const first = await device.post("/api/Users/register/", newUser());
    expect(first.statusCode, first.body).toBe(201);
    const firstId = (first.json() as { user_id: number }).user_id;
    const cookie = device.cookies.get("circles_device");
    expect(cookie).toBeTruthy();
    await device.post("/api/Users/logout/", {});
    const second = await device.post("/api/Users/register/", newUser());
    expect(second.statusCode).toBe(201);
    const secondId = (second.json() as { user_id: number }).user_id;
    expect(device.cookies.get("circles_device")).toBe(cookie);
    const [sighting] = await db().select().from(deviceSightings).where(eq(deviceSightings.userId, firstId));
    const sightings = await db().select().from(deviceSightings).where(eq(deviceSightings.deviceHash, sighting!.deviceHash));
    expect(sightings.map((s) => s.userId).sort()).toEqual([firstId, secondId].sort());
    const [registered] = await db().select({ address: users.signupAddress }).from(users).where(eq(users.id, secondId));
    expect(registered!.address).toBe("203.0.113.77");

    const alt = await createWriting(db(), { id: firstId });
    expect((await like(device, alt.id)).statusCode).toBe(200);
    const own = await createWriting(db(), { id: secondId });
    expect((await like(device, own.id)).statusCode).toBe(200);
    const verdicts = await db().select().from(trustVerdicts).where(eq(trustVerdicts.actorId, secondId));
    expect(verdicts.map((v) => [v.action, v.subjectId, v.reason]).sort()).toEqual(
      [
        ["like", alt.id, "linked"],
        ["like", own.id, "self"],
      ].sort(),
    );
    // The ring job lists the pair, with the shared device and sign-up address as evidence.
    await api.jobs!.runJobNow("find-rings");
    const pair = (await openRings()).find(
      (candidate) => candidate.members.map((m) => m.id).join(",") === [firstId, secondId].sort((a, b) => a - b).join(","),
    );
    expect((pair!.evidence.shared as { kind: string }[]).map((s) => s.kind).sort()).toEqual(["device", "signup_address"]);
  });

  it("marks a burst of likes, and stops a new account at its daily limit with a localized 429", async () => {
    const { user, visitor } = await createSignedInUser(api.app, db());
    const pieces = await Promise.all(Array.from({ length: burstLimit + 2 }, async () => createWriting(db(), await createUser(db()))));
    for (const piece of pieces) expect((await like(visitor, piece.id)).statusCode).toBe(200);
    const bursts = await db()
      .select()
      .from(trustVerdicts)
      .where(and(eq(trustVerdicts.actorId, user.id), eq(trustVerdicts.reason, "burst")));
    expect(bursts.length).toBe(pieces.length - burstLimit);

    // Follows: a new account (trust level 0) gets dailyLimits.follow[0] a day; a month-old one with standing more.
    const limit = dailyLimits.follow[0];
    const stars = await Promise.all(Array.from({ length: limit + 1 }, () => createUser(db())));
    const follow = (who: Visitor, username: string, headers: Record<string, string> = {}) =>
      who.request("POST", `/api/Users/follow/${username}/`, { headers });
    for (const star of stars.slice(0, limit)) expect((await follow(visitor, star.username)).statusCode).toBe(200);
    const refused = await follow(visitor, stars[limit]!.username, { "accept-language": "zh-CN" });
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json()).toMatchObject({ code: "daily_limit_reached", action: "follow", limit, trust_level: 0 });
    expect(refused.json().message).toContain(`${limit}`);
    expect(refused.json().message).toContain("关注");
    const english = await follow(visitor, stars[limit]!.username, { "accept-language": "en" });
    expect(english.json().message).toContain(`limit of ${limit} follows`);

    const seasoned = await createUser(db(), { createdAt: new Date(Date.now() - 40 * 86_400_000) });
    await db().update(users).set({ intelligenceScore: 60 }).where(eq(users.id, seasoned.id));
    const seasonedVisitor = await signedInVisitor(api.app, db(), seasoned);
    for (const star of stars) expect((await follow(seasonedVisitor, star.username)).statusCode).toBe(200);
  });

  it("computes the standing score from what accepted others did, leaving out linked accounts and ring members", async () => {
    const author = await createUser(db());
    const piece = await createWriting(db(), author);
    const fans = await Promise.all(Array.from({ length: 3 }, () => createUser(db())));
    for (const fan of fans) expect((await like(await signedInVisitor(api.app, db(), fan), piece.id)).statusCode).toBe(200);
    // A linked account (same payout account): its like is not counted.
    const alt = await createUser(db());
    await db().execute(
      `insert into payout_accounts (user_id, provider, alipay_account, real_name) values (${author.id}, 'alipay', 'same@example.com', 'A'), (${alt.id}, 'alipay', 'same@example.com', 'A')` as never,
    );
    expect((await like(await signedInVisitor(api.app, db(), alt), piece.id)).statusCode).toBe(200);
    // A fellow member of an open ring: not counted either.
    const partner = await createUser(db());
    const members = [author.id, partner.id].sort((a, b) => a - b);
    await db()
      .insert(trustRings)
      .values({ memberKey: members.join(","), memberIds: members, evidence: {} });
    expect((await like(await signedInVisitor(api.app, db(), partner), piece.id)).statusCode).toBe(200);
    // An answer of theirs accepted by someone else.
    const asker = await createUser(db());
    const question = await createQuestion(db(), asker, { answerers: [author] });
    await db().update(questions).set({ acceptedAnswerId: question.answers[0]!.id }).where(eq(questions.id, question.id));

    const [run] = await api.jobs!.runJobNow("intelligence-scores");
    expect(run!.outcome).toBe("completed");
    expect(await scoreParts(db(), author.id)).toMatchObject({ likes: 3, answersAccepted: 1 });
    const [scored] = await db().select({ score: users.intelligenceScore }).from(users).where(eq(users.id, author.id));
    expect(scored!.score).toBe(2 * 3 + 10);
    // A second run changes nothing.
    const [rerun] = await api.jobs!.runJobNow("intelligence-scores");
    expect(rerun!.outcome).toBe("completed");
  });

  it("corrects a balance with a balanced transaction and a reason; above the configured amount a second admin approves", async () => {
    const second = await createSignedInUser(api.app, db());
    await db().update(users).set({ siteRole: "admin" }).where(eq(users.id, second.user.id));
    const target = await createUser(db());
    const correct = (visitor: Visitor, amount: number, reason?: string) =>
      visitor.post("/api/admin/ledger/corrections/", { user_id: target.id, currency: "sinecoin", amount, ...(reason ? { reason } : {}) });
    const blank = await correct(admin, 10);
    expect([blank.statusCode, blank.json().code]).toEqual([400, "reason_required"]);

    const small = await correct(admin, 500, "tip lost in an outage");
    expect(small.statusCode).toBe(201);
    expect(small.json()).toMatchObject({ status: "posted", amount: 500 });
    expect(small.json().transaction_id).toBeGreaterThan(0);
    const balance = async () => (await db().select({ sinecoin: users.sinecoin }).from(users).where(eq(users.id, target.id)))[0]!.sinecoin;
    expect(await balance()).toBe(500);

    const large = await correct(admin, 5000, "refund of a double charge");
    expect(large.json()).toMatchObject({ status: "pending", transaction_id: null });
    expect(await balance()).toBe(500);
    const id = large.json().id as number;
    const self = await admin.post(`/api/admin/ledger/corrections/${id}/approve/`, { reason: "checked" });
    expect([self.statusCode, self.json().code]).toEqual([403, "second_admin_required"]);
    const noReason = await second.visitor.post(`/api/admin/ledger/corrections/${id}/approve/`, {});
    expect([noReason.statusCode, noReason.json().code]).toEqual([400, "reason_required"]);
    const approved = await second.visitor.post(`/api/admin/ledger/corrections/${id}/approve/`, { reason: "bank statement matches" });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ status: "posted", decided_by: second.user.id });
    expect(await balance()).toBe(5500);
    const twice = await second.visitor.post(`/api/admin/ledger/corrections/${id}/approve/`, { reason: "again" });
    expect([twice.statusCode, twice.json().code]).toEqual([409, "correction_not_pending"]);

    const rejected = await correct(admin, -4000, "clawback");
    const refused = await second.visitor.post(`/api/admin/ledger/corrections/${rejected.json().id}/reject/`, { reason: "not proven" });
    expect(refused.json()).toMatchObject({ status: "rejected", transaction_id: null });
    const overdraw = await correct(admin, -900, "too much");
    expect([overdraw.statusCode, overdraw.json().code]).toEqual([201, undefined]);
    expect(await balance()).toBe(4600);

    const rows = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `user:${target.id}`))
      .orderBy(auditLog.id);
    expect(rows.map((row) => row.action)).toEqual([
      "ledger.correction.request",
      "ledger.correction.request",
      "ledger.correction.approve",
      "ledger.correction.request",
      "ledger.correction.reject",
      "ledger.correction.request",
    ]);
    const list = (await admin.get("/api/admin/ledger/corrections/")).json() as { approval_above: number; results: unknown[] };
    expect(list.approval_above).toBe(1000);
    expect(list.results.length).toBeGreaterThanOrEqual(4);
  });
});
