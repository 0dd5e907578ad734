import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser, createUser } from "../../tests/support/factories.ts";
import { oneDatabaseKind } from "../../tests/support/database.ts";
import { auditLog, ledgerCorrections, trustRings, users } from "../../server/db/schema/index.ts";

/** `/admin/trust` and the corrections on `/admin/ledger`, as pages: both languages, plain form posts, admins only. */
describe.each(oneDatabaseKind)("trust pages on %s", (kind) => {
  let api: TestApi;
  let admin: Visitor;
  let second: Visitor;
  let moderator: Visitor;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
    const a = await createSignedInUser(api.app, db());
    const b = await createSignedInUser(api.app, db());
    const m = await createSignedInUser(api.app, db());
    await db().update(users).set({ siteRole: "admin" }).where(eq(users.id, a.user.id));
    await db().update(users).set({ siteRole: "admin" }).where(eq(users.id, b.user.id));
    await db().update(users).set({ siteRole: "moderator" }).where(eq(users.id, m.user.id));
    admin = a.visitor;
    second = b.visitor;
    moderator = m.visitor;
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("lists a ring with its members and evidence in both languages, and dismisses it with a reason", async () => {
    const alice = await createUser(db(), { username: `ring_alice_${kind}` });
    const bob = await createUser(db(), { username: `ring_bob_${kind}` });
    const carol = await createUser(db(), { username: `ring_carol_${kind}` });
    const members = [alice.id, bob.id, carol.id];
    const [ring] = await db()
      .insert(trustRings)
      .values({
        memberKey: members.join(","),
        memberIds: members,
        evidence: {
          windowDays: 30,
          insideShare: 0.9,
          inside: 9,
          given: 10,
          pairs: [{ from: alice.id, to: bob.id, likes: 2, follows: 1, tips: 1 }],
          shared: [{ kind: "device", value: "0a1b2c3d4e", users: [alice.id, bob.id] }],
        },
      })
      .returning();
    const zh = await admin.get("/admin/trust");
    expect(zh.statusCode).toBe(200);
    expect(zh.body).toContain("信任与安全");
    expect(zh.body).toContain(alice.username);
    expect(zh.body).toContain(`href="/admin/users/${carol.id}"`);
    expect(zh.body).toContain("共用设备");
    expect(zh.body).toContain("90%");
    const en = await admin.get("/en/admin/trust");
    expect(en.body).toContain("Shared device");
    expect(en.body).toContain(`href="/en/admin/users/${bob.id}"`);
    expect((await moderator.get("/admin/trust")).statusCode).toBe(403);

    const token = await admin.csrfToken();
    const blank = await admin.postForm("/en/admin/trust", { csrftoken: token, intent: "dismiss", ring_id: String(ring!.id), reason: " " });
    expect(blank.statusCode).toBe(400);
    expect(blank.body).toContain("reason");
    const done = await admin.postForm("/en/admin/trust", {
      csrftoken: token,
      intent: "dismiss",
      ring_id: String(ring!.id),
      reason: "classmates",
    });
    expect(done.statusCode).toBe(200);
    const [stored] = await db().select().from(trustRings).where(eq(trustRings.id, ring!.id));
    expect(stored).toMatchObject({ status: "dismissed", decisionReason: "classmates" });
    expect(
      (
        await db()
          .select()
          .from(auditLog)
          .where(eq(auditLog.target, `ring:${ring!.id}`))
      )[0]?.action,
    ).toBe("ring.dismiss");
    expect((await admin.get("/en/admin/trust?status=dismissed")).body).toContain("Dismissed: classmates");
  });

  it("corrects a balance from the ledger page; a large correction waits for a second admin", async () => {
    const target = await createUser(db());
    const token = await admin.csrfToken();
    const correct = (amount: number) =>
      admin.postForm("/admin/ledger", {
        csrftoken: token,
        intent: "correct",
        user_id: String(target.id),
        currency: "gold",
        amount: String(amount),
        reason: "lost check-in rewards",
      });
    expect((await correct(30)).statusCode).toBe(200);
    expect((await correct(2000)).statusCode).toBe(200);
    const [small, large] = await db()
      .select()
      .from(ledgerCorrections)
      .where(eq(ledgerCorrections.userId, target.id))
      .orderBy(ledgerCorrections.id);
    expect(small!.status).toBe("posted");
    expect(large!.status).toBe("pending");
    const page = await admin.get("/en/admin/ledger");
    expect(page.body).toContain("You asked for this one");
    const secondPage = await second.get("/admin/ledger");
    expect(secondPage.body).toContain(`name="correction_id" value="${large!.id}"`);
    const secondToken = await second.csrfToken();
    const approved = await second.postForm("/admin/ledger", {
      csrftoken: secondToken,
      intent: "approve",
      correction_id: String(large!.id),
      reason: "matches the support ticket",
    });
    expect(approved.statusCode).toBe(200);
    const [gold] = await db().select({ gold: users.gold }).from(users).where(eq(users.id, target.id));
    expect(gold!.gold).toBe(2030);
    expect((await moderator.get("/admin/ledger")).statusCode).toBe(403);
  });

  it("shows a user's standing on their profile with the formula on hover, in both languages", async () => {
    const author = await createUser(db());
    await db().update(users).set({ intelligenceScore: 42 }).where(eq(users.id, author.id));
    const zh = await new Visitor(api.app).get(`/profile/${author.username}`);
    expect(zh.statusCode).toBe(200);
    expect(zh.body).toMatch(/data-testid="profile-standing"/);
    expect(zh.body).toContain("<strong>42</strong>");
    expect(zh.body).toContain("10 × 被采纳的回答");
    const en = await new Visitor(api.app).get(`/en/profile/${author.username}`);
    expect(en.body).toContain("10 × answers accepted");
  });
});
