import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, type TestApi, type Visitor } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";
import { auditLog, memberships, notifications, users } from "../../server/db/schema/index.ts";
import { forgetSessionsOf } from "../accounts/session-cache.server.ts";

describe.each(databaseKinds)("the admins' review of creator applications on %s", (kind) => {
  let api: TestApi;
  let admin: Visitor;
  let moderator: Visitor;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true, jobs: true });
    const a = await createSignedInUser(api.app, db(), { siteRole: "admin" });
    admin = a.visitor;
    moderator = (await createSignedInUser(api.app, db(), { siteRole: "moderator" })).visitor;
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const typeOf = async (userId: number) => (await db().select({ t: users.userType }).from(users).where(eq(users.id, userId)))[0]!.t;

  async function applicant() {
    const someone = await createSignedInUser(api.app, db());
    const applied = await someone.visitor.request("POST", "/api/monetization/application/", { json: {} });
    expect(applied.json().application.status).toBe("pending");
    return someone;
  }

  it("is for site admins only, on the server: visitors sign in, moderators and members are refused", async () => {
    const someone = await applicant();
    expect((await api.app.inject({ method: "GET", url: "/api/admin/monetization/applications/" })).statusCode).toBe(401);
    expect((await moderator.get("/api/admin/monetization/applications/")).statusCode).toBe(403);
    expect((await someone.visitor.get("/admin/monetization")).statusCode).toBe(403);
    expect((await moderator.get("/admin/monetization")).statusCode).toBe(403);
    const approve = await moderator.request("POST", `/api/admin/monetization/applications/${someone.user.id}/approve/`, { json: {} });
    expect(approve.statusCode).toBe(403);
    expect(await typeOf(someone.user.id)).toBe("Registered users");
    const queue = (await admin.get("/api/admin/monetization/applications/")).json();
    expect(queue.waiting).toContainEqual(
      expect.objectContaining({ user_id: someone.user.id, status: "pending", reason: "followers,original_pieces,account_age_days" }),
    );
    const page = await admin.get("/admin/monetization");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("创作者申请");
    expect(page.body).toContain("粉丝数：至少 100");
    expect((await admin.get("/en/admin/monetization")).body).toContain("Followers: at least 100");
  });

  it("rejects only with a reason the applicant reads, who may then apply again; approving makes them Official once", async () => {
    const someone = await applicant();
    const reject = (reason?: string) =>
      admin.request("POST", `/api/admin/monetization/applications/${someone.user.id}/reject/`, {
        json: reason === undefined ? {} : { reason },
      });
    expect((await reject()).json().code).toBe("reason_required");
    expect((await reject("作品还太少，请继续创作")).statusCode).toBe(204);
    expect((await reject("again")).json().code).toBe("application_decided");
    const status = (await someone.visitor.get("/api/monetization/")).json();
    expect(status.application).toEqual({ status: "rejected", reason: "作品还太少，请继续创作" });
    const page = (await someone.visitor.get("/monetization")).body;
    expect(page).toContain("作品还太少，请继续创作");
    expect(page).toContain('value="apply"');
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "monetization.reject"), eq(auditLog.target, `user:${someone.user.id}`)));
    expect(audit!.reason).toBe("作品还太少，请继续创作");
    const told = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientId, someone.user.id), eq(notifications.verb, "monetization.application_decided")));
    expect(told).toHaveLength(1);
    // Applying again after a rejection waits for review again; the admin approves it with the page's form.
    expect((await someone.visitor.request("POST", "/api/monetization/application/", { json: {} })).json().application.status).toBe(
      "pending",
    );
    const approved = await admin.postForm("/en/admin/monetization", {
      csrftoken: await admin.csrfToken(),
      intent: "approve",
      user_id: String(someone.user.id),
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.body).toContain("The application was approved");
    expect(await typeOf(someone.user.id)).toBe("Official users");
    forgetSessionsOf(someone.user.id);
    expect((await someone.visitor.get("/monetization")).headers.location).toBe("/monetization/home");
    expect(
      (await admin.request("POST", `/api/admin/monetization/applications/${someone.user.id}/approve/`, { json: {} })).json().code,
    ).toBe("application_decided");
  });

  it("approving a VIP member keeps the VIP type now and gives Official back when the membership ends", async () => {
    const someone = await applicant();
    await grant(db(), someone.user.id, "sinecoin", 30);
    const bought = await someone.visitor.request("POST", "/api/monetization/membership/", {
      json: { tier: "vip", days: 30 },
      headers: { "idempotency-key": `review-vip-${kind}-${someone.user.id}` },
    });
    expect(bought.statusCode, bought.body).toBe(201);
    expect((await admin.request("POST", `/api/admin/monetization/applications/${someone.user.id}/approve/`, { json: {} })).statusCode).toBe(
      204,
    );
    expect(await typeOf(someone.user.id)).toBe("VIP users");
    expect((await db().select().from(memberships).where(eq(memberships.userId, someone.user.id)))[0]!.previousType).toBe("Official users");
    await api.jobs!.runJobNow("expire-memberships", { asOf: new Date(Date.now() + 31 * 24 * 3600 * 1000).toISOString() });
    expect(await typeOf(someone.user.id)).toBe("Official users");
  });
});
