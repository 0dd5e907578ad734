import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addMember, createCircle, createSignedInUser, createUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { users } from "../../server/db/schema/index.ts";

describe.each(databaseKinds)("school zone API on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const schoolOf = async (userId: number, school: string, house = "") =>
    db().update(users).set({ school, hogwartsSchool: house }).where(eq(users.id, userId));

  it("groups users by the school on their profile, with their writings the viewer may read", async () => {
    const first = await createUser(db());
    const second = await createUser(db());
    const hidden = await createUser(db());
    await schoolOf(first.id, "清华大学");
    await schoolOf(second.id, "清华大学");
    await schoolOf(hidden.id, "清华大学");
    await db().update(users).set({ hiddenAt: new Date() }).where(eq(users.id, hidden.id));
    const open = await createWriting(db(), first, { title: "校园里的数学" });
    const secret = await createCircle(db(), { visibility: "members" });
    await addMember(db(), secret.id, second.id);
    await createWriting(db(), second, { title: "只给成员看", circleId: secret.id });

    const zone = await new Visitor(api.app).get("/api/schools/");
    expect(zone.statusCode).toBe(200);
    expect(zone.json().schools).toContainEqual({ name: "清华大学", members: 2 });
    expect(zone.json().houses.map((house: { house: string }) => house.house)).toEqual([
      "gryffindor",
      "hufflepuff",
      "ravenclaw",
      "slytherin",
    ]);

    const school = await new Visitor(api.app).get(`/api/schools/${encodeURIComponent("清华大学")}/`);
    expect(school.statusCode, school.body).toBe(200);
    expect(school.json().member_count).toBe(2);
    expect(
      school
        .json()
        .members.map((member: { username: string }) => member.username)
        .sort(),
    ).toEqual([first.username, second.username].sort());
    expect(school.json().writings.map((writing: { id: number }) => writing.id)).toEqual([open.id]);
    expect((await new Visitor(api.app).get(`/api/schools/${encodeURIComponent("无人大学")}/`)).statusCode).toBe(404);
  });

  it("lets a user pick a Hogwarts house on their profile (or none), refusing anything else in their language", async () => {
    const { user, visitor } = await createSignedInUser(api.app, db());
    const picked = await visitor.request("PATCH", "/api/Users/profile/", { json: { hogwarts_school: "ravenclaw", school: "北京大学" } });
    expect(picked.statusCode, picked.body).toBe(200);
    expect(picked.json()).toMatchObject({ hogwarts_school: "ravenclaw", school: "北京大学" });
    const ravenclaw = (await new Visitor(api.app).get("/api/schools/"))
      .json()
      .houses.find((house: { house: string }) => house.house === "ravenclaw");
    expect(ravenclaw.members).toBeGreaterThanOrEqual(1);
    expect(ravenclaw.sample.map((member: { username: string }) => member.username)).toContain(user.username);
    const public_ = await new Visitor(api.app).get(`/api/Users/profile/${user.username}/`);
    expect(public_.json().hogwarts_school).toBe("ravenclaw");

    const refused = await visitor.request("PATCH", "/api/Users/profile/", {
      json: { hogwarts_school: "durmstrang" },
      headers: { "accept-language": "en" },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields.hogwarts_school).toBe("Please choose one of the four houses.");
    const none = await visitor.request("PATCH", "/api/Users/profile/", { json: { hogwarts_school: "" } });
    expect(none.json().hogwarts_school).toBe("");
  });
});
