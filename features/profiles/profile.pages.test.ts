import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addMember, createCircle, createSignedInUser, createUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { events, users } from "../../server/db/schema/index.ts";
import { invalidate } from "../../server/lib/invalidation.ts";
import { userTag } from "../../server/lib/cache-tags.ts";

const currentTab = (body: string) =>
  /<a[^>]*aria-current="page"[^>]*href="[^"]*\?tab=(\w+)"|<a[^>]*href="[^"]*\?tab=(\w+)"[^>]*aria-current="page"/.exec(body);
const tabOf = (body: string) => {
  const match = currentTab(body);
  return match?.[1] ?? match?.[2];
};

/** The public profile as plain HTML: the tab it opens on, who the person is, activity said in full. */
describe.each(databaseKinds)("profile pages on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("shows the bio, school and profession in both languages", async () => {
    const user = await createUser(db());
    await db()
      .update(users)
      .set({ selfDescription: "研究数论的业余爱好者。", school: "北京大学", profession: "工程师" })
      .where(eq(users.id, user.id));
    await invalidate([userTag(user.id)]);
    const visitor = new Visitor(api.app);
    const zh = await visitor.get(`/profile/${user.username}`);
    expect(zh.statusCode).toBe(200);
    expect(zh.body).toContain("研究数论的业余爱好者。");
    expect(zh.body).toMatch(/学校<\/dt><dd>北京大学<\/dd>/);
    expect(zh.body).toMatch(/职业<\/dt><dd>工程师<\/dd>/);
    const en = await visitor.get(`/en/profile/${user.username}`);
    expect(en.body).toMatch(/School<\/dt><dd>北京大学<\/dd>/);
    expect(en.body).toMatch(/Profession<\/dt><dd>工程师<\/dd>/);
  });

  it("opens on Articles when there is no activity, on Activity when there is, and says each line in full with its link", async () => {
    const quiet = await createUser(db());
    const visitor = new Visitor(api.app);
    const empty = await visitor.get(`/en/profile/${quiet.username}`);
    expect(tabOf(empty.body)).toBe("articles");
    expect(empty.body).toContain("No articles yet.");

    const joiner = await createSignedInUser(api.app, db());
    const circle = await createCircle(db(), { nameZh: "数学爱好者", nameEn: "Maths lovers" });
    const joined = await joiner.visitor.post(`/api/circles/${circle.id}/join/`, {});
    expect(joined.statusCode, joined.body).toBeLessThan(300);
    const en = await visitor.get(`/en/profile/${joiner.user.username}`);
    expect(tabOf(en.body)).toBe("activity");
    expect(en.body).toMatch(
      new RegExp(`Joined the circle <a class="activity-link"[^>]*href="/en/circles/${circle.id}"[^>]*>Maths lovers</a>`),
    );
    const zh = await visitor.get(`/profile/${joiner.user.username}`);
    expect(zh.body).toMatch(new RegExp(`加入了圈子 <a class="activity-link"[^>]*href="/circles/${circle.id}"[^>]*>数学爱好者</a>`));

    const writer = await createUser(db());
    await createWriting(db(), writer, { title: "一篇文章" });
    const articles = await visitor.get(`/profile/${writer.username}`);
    expect(tabOf(articles.body)).toBe("articles");
    expect(articles.body).toContain("一篇文章");
    // Asked for explicitly, a tab stays.
    expect(tabOf((await visitor.get(`/profile/${writer.username}?tab=activity`)).body)).toBe("activity");
  });

  it("leaves out activity about circles and writings the viewer may not read", async () => {
    const joiner = await createSignedInUser(api.app, db());
    const hidden = await createCircle(db(), { visibility: "members", nameZh: "秘密圈子", nameEn: "Secret circle" });
    await addMember(db(), hidden.id, joiner.user.id);
    const secret = await createWriting(db(), joiner.user, { circleId: hidden.id, title: "秘密文章" });
    await db()
      .insert(events)
      .values([
        { actorId: joiner.user.id, verb: "circle.joined", subjectType: "circle", subjectId: hidden.id },
        { actorId: joiner.user.id, verb: "writing.published", subjectType: "writing", subjectId: secret.id },
      ]);
    await invalidate([userTag(joiner.user.id)]);
    const stranger = await new Visitor(api.app).get(`/profile/${joiner.user.username}?tab=activity`);
    expect(stranger.body).not.toContain("秘密圈子");
    expect(stranger.body).not.toContain("秘密文章");
    const own = await joiner.visitor.get(`/profile/${joiner.user.username}?tab=activity`);
    expect(own.body).toContain("秘密圈子");
    expect(own.body).toContain("秘密文章");
  });
});
