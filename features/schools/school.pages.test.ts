import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";

/** The school zone as plain HTML: the profile form sets school and house without JavaScript, and the cached zone shows the change at once. */
describe.each(databaseKinds)("school zone pages on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("lists schools and houses for visitors in both languages, updated when a profile names a school and house", async () => {
    const visitor = new Visitor(api.app);
    const before = await visitor.get("/school");
    expect(before.statusCode).toBe(200);
    expect(before.body).toContain("<title>学校专区 - ");
    expect(before.body).toContain("格兰芬多");
    expect(before.body).not.toContain("复旦大学");

    const { user, visitor: student } = await createSignedInUser(api.app, db());
    const form = await student.get("/account/profile");
    expect(form.body).toContain('name="hogwarts_school"');
    expect(form.body).toContain("霍格沃茨学院");
    const saved = await student.postForm("/account/profile", {
      csrftoken: await student.csrfToken(),
      nickname: "复旦学生",
      signature: "",
      self_description: "",
      gender: "secret",
      birthday: "2000-01-01",
      country: "CN",
      school: "复旦大学",
      profession: "",
      hogwarts_school: "hufflepuff",
    });
    expect(saved.statusCode, saved.body.slice(0, 500)).toBe(200);
    expect(saved.body).not.toContain('role="alert"');
    await createWriting(db(), user, { title: "校园随笔" });

    const after = await visitor.get("/school");
    expect(after.body).toContain("复旦大学");
    expect(after.body).toContain(`href="/school/${encodeURIComponent("复旦大学")}"`);
    expect(after.body).toMatch(/data-testid="house-hufflepuff"[\s\S]*复旦学生/);
    const en = await visitor.get("/en/school");
    expect(en.body).toContain("School zone");
    expect(en.body).toContain("Hufflepuff");
    expect(en.body).toContain(`href="/en/school/${encodeURIComponent("复旦大学")}"`);

    const school = await visitor.get(`/school/${encodeURIComponent("复旦大学")}`);
    expect(school.statusCode).toBe(200);
    expect(school.body).toContain("复旦学生");
    expect(school.body).toContain("校园随笔");
    expect((await visitor.get(`/en/school/${encodeURIComponent("复旦大学")}`)).body).toContain("Writings by members");
    expect((await visitor.get(`/school/${encodeURIComponent("没有这所学校")}`)).statusCode).toBe(404);

    const refused = await student.postForm("/en/account/profile", {
      csrftoken: await student.csrfToken(),
      nickname: "复旦学生",
      gender: "secret",
      birthday: "2000-01-01",
      country: "CN",
      hogwarts_school: "durmstrang",
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain("Please choose one of the four houses.");
  });
});
