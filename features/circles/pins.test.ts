import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addMember, createBook, createCircle, createSignedInUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { circlePins, events } from "../../server/db/schema/index.ts";
import { maxPins } from "./pins.ts";

describe.each(databaseKinds)("circle pins on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());

  const db = () => api.database.db;
  const pinsOf = async (circleId: number, visitor = new Visitor(api.app)) => {
    const response = await visitor.get(`/api/circles/${circleId}/pins/`);
    expect(response.statusCode).toBe(200);
    return (response.json() as { pins: { type: string; id: number; title: string; path: string }[] }).pins;
  };

  /** A circle with a founder, a moderator (master), an administrator, a member, and a writing and a book in it. */
  async function circleWithPeople() {
    const circle = await createCircle(db());
    const people = {} as Record<"founder" | "master" | "admin" | "member", Awaited<ReturnType<typeof createSignedInUser>>>;
    for (const role of ["founder", "master", "admin", "member"] as const) {
      people[role] = await createSignedInUser(api.app, db());
      await addMember(db(), circle.id, people[role].user.id, role);
    }
    const writing = await createWriting(db(), people.member.user, { circleId: circle.id, title: "被置顶的文章" });
    const book = await createBook(db(), people.member.user, { circleId: circle.id, name: "被置顶的书" });
    return { circle, people, writing, book };
  }

  it("lets moderators, administrators and the founder pin and unpin the circle's writings and books", async () => {
    const { circle, people, writing, book } = await circleWithPeople();
    expect(await pinsOf(circle.id)).toEqual([]);

    const put = await people.master.visitor.request("PUT", `/api/circles/${circle.id}/pins/writing/${writing.id}/`);
    expect(put.statusCode).toBe(200);
    expect(put.json().pins).toMatchObject([{ type: "writing", id: writing.id, title: "被置顶的文章" }]);
    expect((await people.admin.visitor.request("PUT", `/api/circles/${circle.id}/pins/book/${book.id}/`)).statusCode).toBe(200);
    // Pinning again changes nothing.
    expect((await people.founder.visitor.request("PUT", `/api/circles/${circle.id}/pins/book/${book.id}/`)).statusCode).toBe(200);
    const pins = await pinsOf(circle.id);
    expect(pins.map((pin) => [pin.type, pin.id])).toEqual([
      ["book", book.id],
      ["writing", writing.id],
    ]);
    expect(pins[1]!.path).toContain(`/circles/${circle.id}/`);
    const recorded = await db()
      .select()
      .from(events)
      .where(and(eq(events.verb, "circle.pinned"), eq(events.subjectId, circle.id)));
    expect(recorded).toHaveLength(2);

    expect((await people.founder.visitor.request("DELETE", `/api/circles/${circle.id}/pins/book/${book.id}/`)).statusCode).toBe(204);
    expect((await pinsOf(circle.id)).map((pin) => pin.id)).toEqual([writing.id]);
    // Unpinning what is not pinned is fine too.
    expect((await people.founder.visitor.request("DELETE", `/api/circles/${circle.id}/pins/book/${book.id}/`)).statusCode).toBe(204);
  });

  it("refuses members, outsiders and visitors, and content of other circles", async () => {
    const { circle, people, writing } = await circleWithPeople();
    const path = `/api/circles/${circle.id}/pins/writing/${writing.id}/`;
    const member = await people.member.visitor.request("PUT", path);
    expect(member.statusCode).toBe(403);
    expect(member.json().code).toBe("forbidden");
    const outsider = await createSignedInUser(api.app, db());
    expect((await outsider.visitor.request("PUT", path)).statusCode).toBe(403);
    expect((await outsider.visitor.request("DELETE", path)).statusCode).toBe(403);
    expect((await new Visitor(api.app).request("PUT", path)).statusCode).toBe(401);
    const elsewhere = await createWriting(db(), people.member.user, { circleId: 1 });
    const foreign = await people.founder.visitor.request("PUT", `/api/circles/${circle.id}/pins/writing/${elsewhere.id}/`);
    expect(foreign.statusCode).toBe(404);
    expect((await people.founder.visitor.request("PUT", `/api/circles/${circle.id}/pins/question/${writing.id}/`)).statusCode).toBe(400);
    expect(await db().$count(circlePins, eq(circlePins.circleId, circle.id))).toBe(0);
  });

  it(`pins at most ${maxPins} items, with a localized refusal`, async () => {
    const { circle, people } = await circleWithPeople();
    for (let index = 0; index < maxPins; index++) {
      const writing = await createWriting(db(), people.member.user, { circleId: circle.id });
      expect((await people.founder.visitor.request("PUT", `/api/circles/${circle.id}/pins/writing/${writing.id}/`)).statusCode).toBe(200);
    }
    const extra = await createWriting(db(), people.member.user, { circleId: circle.id });
    const refused = await people.founder.visitor.request("PUT", `/api/circles/${circle.id}/pins/writing/${extra.id}/`, {
      headers: { "accept-language": "zh-CN" },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: "too_many_pins", message: "一个圈子最多置顶 5 项内容，请先取消一项置顶。" });
    expect(await pinsOf(circle.id)).toHaveLength(maxPins);
  });

  it("drops the pin when the pinned writing is deleted", async () => {
    const { circle, people, writing } = await circleWithPeople();
    await people.founder.visitor.request("PUT", `/api/circles/${circle.id}/pins/writing/${writing.id}/`);
    const deleted = await people.member.visitor.request("DELETE", `/api/writings/${writing.id}/`);
    expect(deleted.statusCode).toBe(204);
    expect(await db().$count(circlePins, eq(circlePins.circleId, circle.id))).toBe(0);
  });
});
