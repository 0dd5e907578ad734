import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { desc, eq, sql } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser, createUser, createWriting, signedInVisitor } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { auditLog, sessions, users } from "../../server/db/schema/index.ts";
import { setSiteRole } from "../accounts/user-type.ts";
import { authAnonymousCode as anonymous } from "../accounts/presenter.ts";
import { defineTestJob } from "../jobs/registry.ts";

defineTestJob({
  name: "test-admin-broken",
  retry: { limit: 0, delaySeconds: 1, backoff: false },
  async run() {
    throw new Error("always broken");
  },
});

describe.each(databaseKinds)("admin API on %s", (kind) => {
  let api: TestApi;
  let admin: Visitor;
  let moderator: Visitor;
  let member: Visitor;
  let adminId: number;
  beforeAll(async () => {
    api = await createTestApi(kind, { jobs: true });
    const a = await createSignedInUser(api.app, db(), { username: `boss_${kind}` });
    await db().update(users).set({ siteRole: "admin" }).where(eq(users.id, a.user.id));
    admin = a.visitor;
    adminId = a.user.id;
    const m = await createSignedInUser(api.app, db());
    await db().update(users).set({ siteRole: "moderator" }).where(eq(users.id, m.user.id));
    moderator = m.visitor;
    member = (await createSignedInUser(api.app, db())).visitor;
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const reason = "spam wave";

  it("answers the role × action matrix: visitor 401, user 403, moderator where the policy allows, admin everywhere", async () => {
    const target = await createUser(db());
    const routes: { method: string; url: string; json?: unknown; moderator: boolean }[] = [
      { method: "GET", url: "/api/admin/users/", moderator: true },
      { method: "GET", url: `/api/admin/users/${target.id}/`, moderator: true },
      { method: "PATCH", url: `/api/admin/users/${target.id}/`, json: { suspended_until: null, reason }, moderator: true },
      { method: "GET", url: "/api/admin/audit/", moderator: true },
      { method: "GET", url: "/api/admin/jobs/", moderator: false },
      { method: "POST", url: "/api/admin/ledger/check/", json: { reason }, moderator: false },
    ];
    for (const route of routes) {
      const ask = (visitor: Visitor) => visitor.request(route.method, route.url, route.json === undefined ? {} : { json: route.json });
      expect((await ask(new Visitor(api.app))).statusCode, `visitor ${route.url}`).toBe(401);
      const refused = await ask(member);
      expect([refused.statusCode, refused.json().code], `user ${route.url}`).toEqual([403, "forbidden"]);
      expect((await ask(moderator)).statusCode, `moderator ${route.url}`).toBe(route.moderator ? 200 : 403);
      expect((await ask(admin)).statusCode, `admin ${route.url}`).toBe(200);
    }
    // The retry route: refused the same way; an admin asking for an unknown job gets 404.
    const retry = (visitor: Visitor) => visitor.request("POST", "/api/admin/jobs/nope/retry/", { json: { reason } });
    expect((await retry(new Visitor(api.app))).statusCode).toBe(401);
    expect((await retry(member)).statusCode).toBe(403);
    expect((await retry(moderator)).statusCode).toBe(403);
    expect((await retry(admin)).statusCode).toBe(404);
  });

  it("requires a reason on every staff write: 400 reason_required", async () => {
    const target = await createUser(db());
    for (const [url, method, json] of [
      [`/api/admin/users/${target.id}/`, "PATCH", { user_type: "VIP users" }],
      [`/api/admin/users/${target.id}/`, "PATCH", { user_type: "VIP users", reason: "   " }],
      ["/api/admin/ledger/check/", "POST", {}],
      ["/api/admin/jobs/x/retry/", "POST", {}],
    ] as const) {
      const answer = await admin.request(method, url, { json });
      expect([answer.statusCode, answer.json().code], url).toEqual([400, "reason_required"]);
    }
    expect((await db().select().from(users).where(eq(users.id, target.id)))[0]!.userType).toBe("Registered users");
  });

  it("lets admins set type and role; a moderator changing either is 403 forbidden", async () => {
    const target = await createUser(db());
    const url = `/api/admin/users/${target.id}/`;
    for (const json of [
      { user_type: "VIP users", reason },
      { site_role: "moderator", reason },
    ]) {
      const refused = await moderator.request("PATCH", url, { json });
      expect([refused.statusCode, refused.json().code]).toEqual([403, "forbidden"]);
    }
    const done = await admin.request("PATCH", url, { json: { user_type: "SVIP users", site_role: "moderator", reason: "trusted" } });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ user_type: "SVIP users", site_role: "moderator" });
    const audit = await admin.get(`/api/admin/audit/?target=user:${target.id}&actor=boss_${kind}`);
    expect(audit.json().results[0]).toMatchObject({
      actor: { id: adminId, username: `boss_${kind}`, role: "admin" },
      action: "user.update",
      target: `user:${target.id}`,
      before: { user_type: "Registered users", site_role: "none" },
      after: { user_type: "SVIP users", site_role: "moderator" },
      reason: "trusted",
      address: "127.0.0.1",
    });
  });

  it("searches by username, nickname, email or phone; email and phone are masked except for admins", async () => {
    const target = await createUser(db(), { nickname: `Findme${kind}`, email: `findme_${kind}@example.com` });
    await db().update(users).set({ phone: "+8613800138000" }).where(eq(users.id, target.id));
    for (const q of [target.username, `findme${kind}`, `findme_${kind}@`, "13800138000"]) {
      const found = await admin.get(`/api/admin/users/?q=${encodeURIComponent(q)}`);
      expect(
        found.json().results.map((row: { id: number }) => row.id),
        q,
      ).toContain(target.id);
    }
    const asAdmin = (await admin.get(`/api/admin/users/${target.id}/`)).json();
    expect([asAdmin.email, asAdmin.phone]).toEqual([`findme_${kind}@example.com`, "+8613800138000"]);
    const asModerator = (await moderator.get(`/api/admin/users/?q=findme${kind}`)).json().results[0];
    expect([asModerator.email, asModerator.phone]).toEqual(["fi***@example.com", "+86138****8000"]);
    expect((await moderator.get(`/api/admin/users/${target.id}/`)).json().email).toBe("fi***@example.com");
  });

  it("suspends: sessions end at once, the user may read but every write is 403 account_suspended, until lifted", async () => {
    const { user, visitor } = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), await createUser(db()));
    const until = new Date(Date.now() + 7 * 24 * 3600_000).toISOString();
    const answer = await moderator.request("PATCH", `/api/admin/users/${user.id}/`, { json: { suspended_until: until, reason: "abuse" } });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ suspended_until: until, suspension_reason: "abuse" });
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect((await visitor.get("/api/Users/LoginAuth/")).json().code).toBe(anonymous);

    const again = await signedInVisitor(api.app, db(), user);
    expect((await again.get("/api/Users/LoginAuth/")).json().code).not.toBe(anonymous);
    const write = await again.request("POST", `/api/subjects/writing/${writing.id}/reports/`, { json: { reason: "spam" } });
    expect([write.statusCode, write.json().code]).toEqual([403, "account_suspended"]);
    // They see why and until when.
    expect(write.json()).toMatchObject({ reason: "abuse", suspended_until: until });
    expect(write.json().message).toContain("abuse");

    const lifted = await moderator.request("PATCH", `/api/admin/users/${user.id}/`, {
      json: { suspended_until: null, reason: "appeal upheld" },
    });
    expect(lifted.json().suspended_until).toBeNull();
    const after = await again.request("POST", `/api/subjects/writing/${writing.id}/reports/`, { json: { reason: "spam" } });
    expect(after.statusCode, after.body).toBe(201);
  });

  it("keeps audit rows append-only: UPDATE, DELETE and TRUNCATE from the app's own connection fail", async () => {
    await admin.request("POST", "/api/admin/ledger/check/", { json: { reason: "weekly" } });
    const [row] = await db().select().from(auditLog).where(eq(auditLog.action, "ledger.check")).orderBy(desc(auditLog.id)).limit(1);
    expect(row).toBeDefined();
    await expect(db().execute(sql`update audit_log set reason = 'nothing happened' where id = ${row!.id}`)).rejects.toThrow();
    await expect(db().execute(sql`delete from audit_log where id = ${row!.id}`)).rejects.toThrow();
    await expect(db().execute(sql`truncate audit_log`)).rejects.toThrow();
    const [still] = await db().select().from(auditLog).where(eq(auditLog.id, row!.id));
    expect(still!.reason).toBe("weekly");
  });

  it("runs the ledger check, keeps its result and audits it", async () => {
    const answer = await admin.request("POST", "/api/admin/ledger/check/", { json: { reason: "month end" } });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ consistent: true, unbalanced_transactions: [], mismatched_users: [] });
    const audit = (await admin.get("/api/admin/audit/?action=ledger.check")).json().results;
    expect(audit[0]).toMatchObject({ target: "ledger", reason: "month end", after: { consistent: true } });
  });

  it("lists failed jobs and retries one, audited", async () => {
    const [run] = await api.jobs!.runJobNow("test-admin-broken");
    expect(run!.outcome).toBe("failed");
    const jobs = (await admin.get("/api/admin/jobs/")).json();
    expect(jobs.failed.map((job: { id: string }) => job.id)).toContain(run!.jobId);
    expect(jobs.schedules.map((s: { name: string }) => s.name)).toContain("hourly-maintenance");
    const retried = await admin.request("POST", `/api/admin/jobs/${run!.jobId}/retry/`, { json: { reason: "provider back" } });
    expect(retried.statusCode, retried.body).toBe(200);
    const audit = (await admin.get(`/api/admin/audit/?target=job:${run!.jobId}`)).json().results;
    expect(audit[0]).toMatchObject({ action: "job.retry", reason: "provider back" });
  });

  it("audits the command line's role changes as actor cli", async () => {
    const target = await createUser(db());
    await setSiteRole({ db: db() }, target.username, "moderator");
    const audit = (await admin.get(`/api/admin/audit/?actor=cli&target=user:${target.id}`)).json().results;
    expect(audit[0]).toMatchObject({
      actor: { id: null, username: "cli", role: "cli" },
      action: "user.set_site_role",
      after: { site_role: "moderator" },
    });
  });

  it("pages the audit log by cursor", async () => {
    const first = (await admin.get("/api/admin/audit/")).json();
    expect(first.results.length).toBeGreaterThan(0);
    const ids = first.results.map((row: { id: number }) => row.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const bad = await admin.get("/api/admin/audit/?cursor=abc");
    expect(bad.statusCode).toBe(400);
  });
});
