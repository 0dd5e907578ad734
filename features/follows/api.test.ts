import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createUser, signedInVisitor } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { events, follows } from "../../server/db/schema/index.ts";
import { getUnreadCounts } from "../messages/service.ts";
import { listNewFollowers } from "./service.ts";

describe.each(databaseKinds)("follow API on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());

  const unreadFollows = async (userId: number) => (await getUnreadCounts(api.database.db, userId)).unread_follow_count;

  it("follows: one row, a user.followed event, the followee's unread follow counter, counts in the answer", async () => {
    const [fan, star] = [await createUser(api.database.db), await createUser(api.database.db)];
    const visitor = await signedInVisitor(api.app, api.database.db, fan);
    const response = await visitor.post(`/api/Users/follow/${star.username}/`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ following: true, followers_count: 1, following_count: 0 });
    expect(await unreadFollows(star.id)).toBe(1);
    const recorded = await api.database.db
      .select()
      .from(events)
      .where(and(eq(events.verb, "user.followed"), eq(events.actorId, fan.id)));
    expect(recorded).toMatchObject([{ subjectType: "user", subjectId: star.id }]);
    const newFollowers = await listNewFollowers(api.database.db, star.id);
    expect(newFollowers).toMatchObject([{ username: fan.username, stillFollowing: true }]);

    // Following again changes nothing.
    const again = await visitor.post(`/api/Users/follow/${star.username}/`);
    expect(again.json()).toEqual({ following: true, followers_count: 1, following_count: 0 });
    expect(await unreadFollows(star.id)).toBe(1);

    const unfollow = await visitor.request("DELETE", `/api/Users/follow/${star.username}/`);
    expect(unfollow.statusCode).toBe(200);
    expect(unfollow.json()).toEqual({ following: false, followers_count: 0, following_count: 0 });
    expect(await api.database.db.select().from(follows).where(eq(follows.followeeId, star.id))).toHaveLength(0);
    const unfollowAgain = await visitor.request("DELETE", `/api/Users/follow/${star.username}/`);
    expect(unfollowAgain.json()).toMatchObject({ following: false, followers_count: 0 });
    expect((await listNewFollowers(api.database.db, star.id))[0]!.stillFollowing).toBe(false);
    // Following again is a new event, but the follower is listed once.
    await visitor.post(`/api/Users/follow/${star.username}/`);
    expect(
      await api.database.db
        .select()
        .from(events)
        .where(and(eq(events.verb, "user.followed"), eq(events.actorId, fan.id))),
    ).toHaveLength(2);
    expect(await listNewFollowers(api.database.db, star.id)).toMatchObject([{ username: fan.username, stillFollowing: true }]);
    // The unfollow took its notification back: the follow of now is the one unread.
    expect(await unreadFollows(star.id)).toBe(1);
  });

  it.each([
    ["en", "You can't follow yourself.", "You can't unfollow yourself.", "No follow target."],
    ["zh-CN", "不能关注自己。", "不能取消关注自己。", "关注对象不存在。"],
  ])("answers the spec's messages in %s", async (language, followSelf, unfollowSelf, noTarget) => {
    const me = await createUser(api.database.db);
    const visitor = await signedInVisitor(api.app, api.database.db, me, { "accept-language": language });
    const self = await visitor.post(`/api/Users/follow/${me.username}/`);
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({ code: "cannot_follow_self", message: followSelf });
    const selfUnfollow = await visitor.request("DELETE", `/api/Users/follow/${me.username}/`);
    expect(selfUnfollow.statusCode).toBe(400);
    expect(selfUnfollow.json()).toEqual({ code: "cannot_unfollow_self", message: unfollowSelf });
    const missing = await visitor.post("/api/Users/follow/nobody_at_all/");
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: "no_follow_target", message: noTarget });
    const missingUnfollow = await visitor.request("DELETE", "/api/Users/follow/nobody_at_all/");
    expect((missingUnfollow.json() as { code: string }).code).toBe("no_follow_target");
  });

  it("asks visitors to log in, and needs the CSRF header", async () => {
    const star = await createUser(api.database.db);
    const anonymous = new Visitor(api.app, { "accept-language": "en" });
    const response = await anonymous.post(`/api/Users/follow/${star.username}/`);
    expect(response.statusCode).toBe(401);
    expect((response.json() as { message: string }).message).toBe("Please log in first.");
    const fan = await signedInVisitor(api.app, api.database.db, await createUser(api.database.db));
    expect((await fan.request("POST", `/api/Users/follow/${star.username}/`, { csrf: false })).statusCode).toBe(403);
  });

  it("keeps counts and the unread counter right under concurrent follows and unfollows", async () => {
    const star = await createUser(api.database.db);
    const fans = await Promise.all(Array.from({ length: 4 }, () => createUser(api.database.db)));
    const visitors = await Promise.all(fans.map((fan) => signedInVisitor(api.app, api.database.db, fan)));
    // Each fan double-clicks Follow.
    const answers = await Promise.all(
      visitors.flatMap((visitor) => [
        visitor.post(`/api/Users/follow/${star.username}/`),
        visitor.post(`/api/Users/follow/${star.username}/`),
      ]),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(200));
    expect(await api.database.db.select().from(follows).where(eq(follows.followeeId, star.id))).toHaveLength(4);
    expect(await unreadFollows(star.id)).toBe(4);
    expect(
      await api.database.db
        .select()
        .from(events)
        .where(and(eq(events.verb, "user.followed"), eq(events.subjectId, star.id))),
    ).toHaveLength(4);
    // Two unfollow at once while another follows again.
    await Promise.all([
      visitors[0]!.request("DELETE", `/api/Users/follow/${star.username}/`),
      visitors[1]!.request("DELETE", `/api/Users/follow/${star.username}/`),
      visitors[2]!.post(`/api/Users/follow/${star.username}/`),
    ]);
    const profile = (await new Visitor(api.app).get(`/api/Users/profile/${star.username}/`)).json() as { followers_count: number };
    expect(profile.followers_count).toBe(2);
  });
});
