import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { addMember, createCircle, createSignedInUser, createUser, signedInVisitor } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";

/**
 * Memberships and unread counters are remembered between requests (`keyedMemory`): these show
 * that every write through the real API is seen by the very next read, never a remembered copy.
 */
describe.each(databaseKinds)("remembered per-user reads on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("a removed member loses a members-only circle on the next request, and a re-added one regains it", async () => {
    const founder = await createSignedInUser(api.app, db());
    const member = await createSignedInUser(api.app, db());
    const circle = await createCircle(db(), { visibility: "members" });
    await addMember(db(), circle.id, founder.user.id, "founder");
    await addMember(db(), circle.id, member.user.id);

    // Read twice: the second answer comes from the remembered memberships.
    expect((await member.visitor.get(`/api/circles/${circle.id}/`)).statusCode).toBe(200);
    expect((await member.visitor.get(`/api/circles/${circle.id}/`)).statusCode).toBe(200);

    expect((await founder.visitor.request("DELETE", `/api/circles/${circle.id}/members/${member.user.id}/`)).statusCode).toBe(204);
    expect((await member.visitor.get(`/api/circles/${circle.id}/`)).statusCode).toBe(404);

    await addMember(db(), circle.id, member.user.id, "admin");
    expect((await member.visitor.get(`/api/circles/${circle.id}/`)).json()).toMatchObject({ circle: { id: circle.id } });
  });

  it("joining and leaving show in the member's own view at once", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const circle = await createCircle(db(), { visibility: "circle" });
    const can = async () => (await visitor.get(`/api/circles/${circle.id}/`)).json().can as { join: boolean; leave: boolean };
    expect(await can()).toMatchObject({ join: true, leave: false });
    expect(await can()).toMatchObject({ join: true, leave: false });
    expect((await visitor.post(`/api/circles/${circle.id}/join/`)).statusCode).toBe(200);
    expect(await can()).toMatchObject({ join: false, leave: true });
    expect((await visitor.post(`/api/circles/${circle.id}/leave/`)).statusCode).toBe(200);
    expect(await can()).toMatchObject({ join: true, leave: false });
  });

  it("a new follower shows in the followee's unread counters on the next call, and reading them zeroes it at once", async () => {
    const star = await createSignedInUser(api.app, db());
    const fan = await signedInVisitor(api.app, db(), await createUser(db()));
    const unread = async () => (await star.visitor.get("/api/Users/get_unread")).json().unread_follow_count as number;
    expect(await unread()).toBe(0);
    expect(await unread()).toBe(0);
    expect((await fan.post(`/api/Users/follow/${star.user.username}/`)).statusCode).toBe(200);
    expect(await unread()).toBe(1);
    expect((await star.visitor.request("PATCH", "/api/Users/read_meg/follow/", { json: {} })).statusCode).toBe(204);
    expect(await unread()).toBe(0);
  });
});
