import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createUser, signedInVisitor } from "../../tests/support/factories.ts";
import { oneDatabaseKind } from "../../tests/support/database.ts";
import { circles, users } from "../../server/db/schema/index.ts";

/**
 * A suspended account may read but not write, and page forms are writes too: they run through the
 * same operations as the API (`formAction` → `runOperation`), so the refusal is the API's, said on
 * the form in the page's language.
 */
describe.each(oneDatabaseKind)("a suspended account's page forms on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());

  it("refuses creating a circle and saving the profile, with the reason and date in the page's language", async () => {
    const db = api.database.db;
    const user = await createUser(db);
    await db
      .update(users)
      .set({ suspendedUntil: new Date("2099-01-02T03:04:00Z"), suspensionReason: "spam" })
      .where(eq(users.id, user.id));
    const visitor = await signedInVisitor(api.app, db, user);
    const csrftoken = await visitor.csrfToken();

    const circle = await visitor.postForm("/circles/new", {
      csrftoken,
      name: "停用者的圈子",
      description: "",
      visibility: "public",
      default_language: "zh-CN",
      languages: "zh-CN",
    });
    expect(circle.statusCode).toBe(403);
    expect(circle.body).toContain("你的账号已被停用至");
    expect(circle.body).toContain("（spam）");
    expect(await db.select({ id: circles.id }).from(circles).where(eq(circles.nameZh, "停用者的圈子"))).toEqual([]);

    const profile = await visitor.postForm("/en/account/profile", {
      csrftoken,
      nickname: "Renamed",
      signature: "",
      self_description: "",
      gender: "secret",
      birthday: "2000-01-01",
      country: "CN",
      school: "",
      profession: "",
      hogwarts_school: "",
    });
    expect(profile.statusCode).toBe(403);
    expect(profile.body).toContain("Your account is suspended until");
    expect(profile.body).toContain("(spam)");
    const [after] = await db.select({ nickname: users.nickname }).from(users).where(eq(users.id, user.id));
    expect(after!.nickname).not.toBe("Renamed");
  });
});
