import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser, createUser } from "../../tests/support/factories.ts";
import { oneDatabaseKind } from "../../tests/support/database.ts";
import { users } from "../../server/db/schema/index.ts";
import { adminSections, staffCan } from "./policy.ts";

/** Every /admin page, for each role: visitors sign in, users 403, moderators where the policy lets them, admins everywhere; both languages. */
describe.each(oneDatabaseKind)("admin pages on %s", (kind) => {
  let api: TestApi;
  let admin: Visitor;
  let moderator: Visitor;
  let member: Visitor;
  let targetId: number;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
    const a = await createSignedInUser(api.app, db());
    await db().update(users).set({ siteRole: "admin" }).where(eq(users.id, a.user.id));
    admin = a.visitor;
    const m = await createSignedInUser(api.app, db());
    await db().update(users).set({ siteRole: "moderator" }).where(eq(users.id, m.user.id));
    moderator = m.visitor;
    member = (await createSignedInUser(api.app, db())).visitor;
    targetId = (await createUser(db())).id;
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("answers the role × page matrix on every section and a user's page", async () => {
    const pages = [
      ...adminSections.map((section) => ({ path: section.path, moderator: staffCan("moderator", section.action) })),
      { path: `/admin/users/${targetId}`, moderator: true },
    ];
    for (const { path, moderator: moderatorMay } of pages) {
      for (const prefix of ["", "/en"]) {
        const url = `${prefix}${path}`;
        const visitor = await new Visitor(api.app).get(url);
        expect(visitor.statusCode, `visitor ${url}`).toBe(302);
        expect(visitor.headers.location, `visitor ${url}`).toContain("/login?next=");
        expect((await member.get(url)).statusCode, `user ${url}`).toBe(403);
        expect((await moderator.get(url)).statusCode, `moderator ${url}`).toBe(moderatorMay ? 200 : 403);
        expect((await admin.get(url)).statusCode, `admin ${url}`).toBe(200);
      }
    }
  });

  it("shows each role only the sections it may open, feedback and links inside the admin layout", async () => {
    const adminMenu = (await admin.get("/en/admin/links")).body;
    expect(adminMenu).toMatch(/class="[^"]*\badmin-menu\b/);
    for (const path of ["content", "announcements", "links", "feedback", "ledger"]) expect(adminMenu).toContain(`href="/en/admin/${path}"`);
    const moderatorMenu = (await moderator.get("/admin/content")).body;
    expect(moderatorMenu).toContain('href="/admin/content"');
    expect(moderatorMenu).toContain('href="/admin/links"');
    expect(moderatorMenu).not.toContain('href="/admin/feedback"');
    expect(moderatorMenu).not.toContain('href="/admin/ledger"');
  });
});
