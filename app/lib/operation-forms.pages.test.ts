import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addMember, createCircle, createSignedInUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { checkins, circleMembers, follows, subjectCounts, writings } from "../../server/db/schema/index.ts";

/**
 * The page forms that run the API's operations through the form adapter (server/lib/operation.ts),
 * posted as a browser without JavaScript posts them: follow and unfollow on a profile, the daily
 * check-in, joining and leaving a circle, deleting a writing, sharing.
 */
describe.each(databaseKinds)("operation forms on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("follows and unfollows from the profile page, says a refusal beside the button, and sends visitors to log in", async () => {
    const { user: target } = await createSignedInUser(api.app, db());
    const fan = await createSignedInUser(api.app, db());
    const path = `/profile/${target.username}`;
    const csrftoken = await fan.visitor.csrfToken();
    const followed = await fan.visitor.postForm(`${path}.data`, { csrftoken, intent: "follow" });
    expect(followed.statusCode).toBe(200);
    expect(followed.body).toContain("following");
    const rows = () =>
      db()
        .select()
        .from(follows)
        .where(and(eq(follows.followerId, fan.user.id), eq(follows.followeeId, target.id)));
    expect(await rows()).toHaveLength(1);
    await fan.visitor.postForm(`${path}.data`, { csrftoken, intent: "unfollow" });
    expect(await rows()).toHaveLength(0);

    const self = await fan.visitor.postForm(`/en/profile/${fan.user.username}`, { csrftoken, intent: "follow" });
    expect(self.statusCode).toBe(400);
    expect(self.body).toContain("follow yourself.");
    const forged = await fan.visitor.postForm(path, { csrftoken: "forged", intent: "follow" });
    expect(forged.statusCode).toBe(403);
    expect(await rows()).toHaveLength(0);

    const visitor = await new Visitor(api.app).postForm(path, { intent: "follow" });
    expect(visitor.statusCode).toBe(302);
    expect(visitor.headers.location).toContain("/login?next=");
  });

  it("checks in once a day from the personal centre; the second try is said on the card", async () => {
    const user = await createSignedInUser(api.app, db());
    const csrftoken = await user.visitor.csrfToken();
    const first = await user.visitor.postForm("/account/home", { csrftoken, intent: "checkin" });
    expect(first.statusCode).toBe(200);
    expect(await db().select().from(checkins).where(eq(checkins.userId, user.user.id))).toHaveLength(1);
    const again = await user.visitor.postForm("/en/account/home", { csrftoken, intent: "checkin" });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain("You have already checked in today.");
    const unknown = await user.visitor.postForm("/account/home", { csrftoken, intent: "check-out" });
    expect(unknown.statusCode).toBe(400);
  });

  it("joins a circle and leaves it after confirming, the refusals on the error screen", async () => {
    const founder = await createSignedInUser(api.app, db());
    const circle = await createCircle(db());
    await addMember(db(), circle.id, founder.user.id, "founder");
    const member = await createSignedInUser(api.app, db());
    const path = `/circles/${circle.id}`;
    const csrftoken = await member.visitor.csrfToken();
    const membership = () =>
      db()
        .select()
        .from(circleMembers)
        .where(and(eq(circleMembers.circleId, circle.id), eq(circleMembers.userId, member.user.id)));
    const joined = await member.visitor.postForm(path, { csrftoken, intent: "join" });
    expect(joined.statusCode).toBe(200);
    expect(joined.body).toContain("你已加入圈子。");
    expect(await membership()).toHaveLength(1);
    const asked = await member.visitor.postForm(path, { csrftoken, intent: "leave" });
    expect(await membership()).toHaveLength(1);
    expect(asked.statusCode).toBe(200);
    const left = await member.visitor.postForm(path, { csrftoken, intent: "leave", confirmed: "1" });
    expect(left.body).toContain("你已退出圈子。");
    expect(await membership()).toHaveLength(0);

    const founderToken = await founder.visitor.csrfToken();
    const refused = await founder.visitor.postForm(path, { csrftoken: founderToken, intent: "leave", confirmed: "1" });
    expect(refused.statusCode).toBe(403);
    expect((await new Visitor(api.app).postForm(path, { intent: "join" })).statusCode).toBe(302);
  });

  it("deletes a writing from its page after confirming, through the API's operation; others are refused", async () => {
    const author = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), author.user);
    const path = `/circles/1/writing/${writing.id}`;
    const stranger = await createSignedInUser(api.app, db());
    const refused = await stranger.visitor.postForm(path, {
      csrftoken: await stranger.visitor.csrfToken(),
      intent: "delete",
      confirmed: "1",
    });
    expect(refused.statusCode).toBe(403);
    const csrftoken = await author.visitor.csrfToken();
    const asked = await author.visitor.postForm(path, { csrftoken, intent: "delete" });
    expect(asked.statusCode).toBe(200);
    expect(await db().select().from(writings).where(eq(writings.id, writing.id))).toHaveLength(1);
    const deleted = await author.visitor.postForm(`/en${path}`, { csrftoken, intent: "delete", confirmed: "1" });
    expect(deleted.statusCode).toBe(302);
    expect(deleted.headers.location).toBe("/en/circles/1?deleted=1");
    expect(await db().select().from(writings).where(eq(writings.id, writing.id))).toEqual([]);
  });
  it("counts a share from a page form once per visitor and day, issuing a visitor's cookie, through the API's operation", async () => {
    const author = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), author.user);
    const path = `/subjects/writing/${writing.id}/share`;
    const shares = async () =>
      (
        await db()
          .select({ count: subjectCounts.shareCount })
          .from(subjectCounts)
          .where(and(eq(subjectCounts.subjectType, "writing"), eq(subjectCounts.subjectId, writing.id)))
      )[0]?.count ?? 0;
    const visitor = new Visitor(api.app);
    const csrftoken = await visitor.csrfToken();
    const next = `/circles/1/writing/${writing.id}`;
    const first = await visitor.postForm(path, { csrftoken, next });
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe(`${next}#actions`);
    expect(visitor.cookies.get("vid")).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    expect(await shares()).toBe(1);
    // The same visitor (its cookie kept) the same day: still one; the API agrees.
    const again = await visitor.postForm(`/en${path}.data`, { csrftoken, next });
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain("share_count");
    expect(await shares()).toBe(1);
    expect((await visitor.post(`/api/subjects/writing/${writing.id}/share/`, {})).json()).toEqual({ share_count: 1 });
    // Another visitor counts; a forged token and an unreadable subject do not.
    expect((await new Visitor(api.app).postForm(path, { csrftoken: "forged" })).statusCode).toBe(403);
    const other = new Visitor(api.app);
    expect((await other.postForm(path, { csrftoken: await other.csrfToken() })).statusCode).toBe(303);
    expect(await shares()).toBe(2);
    const hidden = await createCircle(db(), { visibility: "members" });
    const secret = await createWriting(db(), author.user, { circleId: hidden.id });
    expect((await other.postForm(`/subjects/writing/${secret.id}/share`, { csrftoken: await other.csrfToken() })).statusCode).toBe(404);
  });
});
