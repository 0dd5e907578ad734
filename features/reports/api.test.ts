import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import {
  addMember,
  createBook,
  createCircle,
  createComment,
  createSignedInUser,
  createUser,
  createWriting,
  signedInVisitor,
} from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { comments, events, moderationCases, reports, writings } from "../../server/db/schema/index.ts";
import { invalidate } from "../../server/lib/invalidation.ts";
import { writingTags } from "../writings/service.ts";

describe.each(databaseKinds)("reports and moderation API on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { env: { REPORT_HIDE_THRESHOLD: "3" } });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  const report = (visitor: Visitor, type: string, id: number, body: Record<string, unknown> = { reason: "spam", description: "广告" }) =>
    visitor.request("POST", `/api/subjects/${type}/${id}/reports/`, { json: body });
  const resolve = (visitor: Visitor, caseId: number, action: string, note = "") =>
    visitor.request("POST", `/api/moderation/cases/${caseId}/resolve/`, { json: { action, note } });
  const cases = (visitor: Visitor, query = "") => visitor.request("GET", `/api/moderation/cases/${query}`);
  /** A reader of some standing: an account two months old, whose report counts in full. */
  const seasoned = () => new Date(Date.now() - 60 * 24 * 3600 * 1000);
  const reader = async () => (await createSignedInUser(api.app, db(), { createdAt: seasoned() })).visitor;
  const subjectEvents = (type: string, id: number, verbs: string[]) =>
    db()
      .select({ verb: events.verb, actorId: events.actorId, recipientIds: events.recipientIds, data: events.data })
      .from(events)
      .where(and(eq(events.subjectType, type), eq(events.subjectId, id), inArray(events.verb, verbs)))
      .orderBy(events.id);

  it("files reports on one case per subject; the same reporter again is 409 repeated_flagging, localized", async () => {
    const author = await createUser(db());
    const writing = await createWriting(db(), author, { title: "被举报的文章" });
    const { user: first, visitor } = await createSignedInUser(api.app, db());
    const created = await report(visitor, "writing", writing.id);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ hidden: false, open: true });

    const again = await report(visitor, "writing", writing.id, { reason: "other", description: "" });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe("repeated_flagging");
    expect(again.json().message).toBe("您已经举报过了，请勿重复举报。");
    const english = await visitor.request("POST", `/api/subjects/writing/${writing.id}/reports/`, {
      json: { reason: "spam" },
      headers: { "accept-language": "en" },
    });
    expect(english.json().message).toBe("You have already reported this. Repeated flagging is not allowed.");

    const second = await report(await reader(), "writing", writing.id, { reason: "harassment", description: "骂人" });
    expect(second.json().case_id).toBe(created.json().case_id);
    const rows = await db()
      .select()
      .from(moderationCases)
      .where(and(eq(moderationCases.subjectType, "writing"), eq(moderationCases.subjectId, writing.id)));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "open", reporterCount: 2, hidden: false, authorId: author.id, circleId: 1 });
    // Every report is an event; nobody is told (moderators read their queues).
    const recorded = await subjectEvents("writing", writing.id, ["report.created"]);
    expect(recorded).toHaveLength(2);
    expect(recorded[0]).toMatchObject({ actorId: first.id, recipientIds: [], data: { caseId: rows[0]!.id, reason: "spam", opened: true } });
    expect(recorded[1]).toMatchObject({ data: { opened: false } });
  });

  it("answers not_found for what the reporter may not read, and refuses bad input and one's own content", async () => {
    const author = await createUser(db());
    const secret = await createCircle(db(), { visibility: "members" });
    const hidden = await createWriting(db(), author, { circleId: secret.id });
    const visitor = await reader();
    expect((await report(visitor, "writing", hidden.id)).statusCode).toBe(404);
    expect((await report(visitor, "writing", 999_999)).statusCode).toBe(404);
    expect((await report(visitor, "nonsense", 1)).statusCode).toBe(404);
    // Circles cannot be hidden, so they cannot be reported.
    expect((await report(visitor, "circle", 1)).statusCode).toBe(404);
    const open = await createWriting(db(), author);
    const invalid = await report(visitor, "writing", open.id, { reason: "boring" });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().code).toBe("validation_failed");
    const own = await report(await signedInVisitor(api.app, db(), author), "writing", open.id);
    expect(own.statusCode).toBe(400);
    expect(own.json().code).toBe("cannot_report_own");
    expect((await report(new Visitor(api.app), "writing", open.id)).statusCode).toBe(401);
  });

  it("hides a subject when enough distinct reporters report it: only its author and moderators read it, it leaves the lists", async () => {
    const author = await createUser(db());
    const { visitor: authorVisitor } = { visitor: await signedInVisitor(api.app, db(), author) };
    const circle = await createCircle(db());
    const writing = await createWriting(db(), author, { circleId: circle.id, title: "阈值隐藏" });
    const master = await createUser(db());
    await addMember(db(), circle.id, master.id, "master");
    const masterVisitor = await signedInVisitor(api.app, db(), master);
    const bystander = await reader();

    const listed = async (visitor: Visitor) =>
      ((await visitor.request("GET", `/api/circles/${circle.id}/writings/`)).json().items as { id: number }[]).map((item) => item.id);
    expect(await listed(bystander)).toContain(writing.id);

    for (let index = 0; index < 2; index += 1) expect((await report(await reader(), "writing", writing.id)).json().hidden).toBe(false);
    const third = await report(await reader(), "writing", writing.id);
    expect(third.json()).toMatchObject({ hidden: true, open: true });

    expect((await bystander.request("GET", `/api/writings/${writing.id}/`)).statusCode).toBe(404);
    expect((await new Visitor(api.app).request("GET", `/api/writings/${writing.id}/`)).statusCode).toBe(404);
    expect((await authorVisitor.request("GET", `/api/writings/${writing.id}/`)).statusCode).toBe(200);
    expect((await masterVisitor.request("GET", `/api/writings/${writing.id}/`)).statusCode).toBe(200);
    expect(await listed(bystander)).not.toContain(writing.id);
    expect(await listed(authorVisitor)).not.toContain(writing.id);
    const feed = (await bystander.request("GET", "/api/writings/?tab=all")).json().items as { id: number }[];
    expect(feed.map((item) => item.id)).not.toContain(writing.id);
    // A reaction on it is now as on an unknown subject.
    expect(
      (await bystander.request("PUT", `/api/subjects/writing/${writing.id}/reaction/`, { json: { reaction: "like" } })).statusCode,
    ).toBe(404);
  });

  it("lets circle moderators (master and above, here or above) and site moderators see the queue; others get 403", async () => {
    const parent = await createCircle(db());
    const child = await createCircle(db(), { parentId: parent.id });
    const author = await createUser(db());
    const writing = await createWriting(db(), author, { circleId: child.id });
    const filed = (await report(await reader(), "writing", writing.id)).json();

    const master = await createUser(db());
    await addMember(db(), parent.id, master.id, "master");
    const masterVisitor = await signedInVisitor(api.app, db(), master);
    const member = await createUser(db());
    await addMember(db(), child.id, member.id, "member");
    const memberVisitor = await signedInVisitor(api.app, db(), member);
    const childAdmin = await createUser(db());
    await addMember(db(), child.id, childAdmin.id, "admin");
    const childAdminVisitor = await signedInVisitor(api.app, db(), childAdmin);
    const { visitor: siteModerator } = await createSignedInUser(api.app, db(), { siteRole: "moderator" });

    const ofParent = await cases(masterVisitor, `?circle_id=${parent.id}`);
    expect(ofParent.statusCode, ofParent.body).toBe(200);
    const found = (ofParent.json().results as { id: number }[]).find((item) => item.id === filed.case_id);
    expect(found).toMatchObject({
      subject: { type: "writing", id: writing.id },
      circle_id: child.id,
      status: "open",
      reporter_count: 1,
      reasons: ["spam"],
      reports: [{ reason: "spam", description: "广告" }],
      history: [],
    });
    // A sub-circle's moderators do not see the parent's queue.
    expect((await cases(childAdminVisitor, `?circle_id=${child.id}`)).statusCode).toBe(200);
    expect((await cases(childAdminVisitor, `?circle_id=${parent.id}`)).statusCode).toBe(403);
    expect((await cases(memberVisitor, `?circle_id=${child.id}`)).statusCode).toBe(403);
    expect((await cases(masterVisitor)).statusCode).toBe(403);
    expect((await cases(new Visitor(api.app))).statusCode).toBe(401);
    const all = await cases(siteModerator, "?status=open");
    expect((all.json().results as { id: number }[]).map((item) => item.id)).toContain(filed.case_id);

    // Deciding follows the same rule.
    expect((await resolve(memberVisitor, filed.case_id, "hide")).statusCode).toBe(403);
    expect((await resolve(childAdminVisitor, filed.case_id, "dismiss", "没有问题")).statusCode).toBe(200);
  });

  it("hides, restores, dismisses and deletes with notes; the history and the events name who, and tell reporters and the author", async () => {
    const author = await createUser(db());
    const writing = await createWriting(db(), author, { title: "待处理" });
    const { user: reporter, visitor: reporterVisitor } = await createSignedInUser(api.app, db());
    const filed = (await report(reporterVisitor, "writing", writing.id)).json();
    const { user: moderator, visitor: moderatorVisitor } = await createSignedInUser(api.app, db(), { siteRole: "moderator" });

    const hidden = await resolve(moderatorVisitor, filed.case_id, "hide", "违规广告");
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(hidden.json()).toMatchObject({
      status: "decided",
      decision: "hide",
      hidden: true,
      history: [{ action: "hide", note: "违规广告", actor: { id: moderator.id } }],
    });
    expect((await reporterVisitor.request("GET", `/api/writings/${writing.id}/`)).statusCode).toBe(404);
    const [row] = await db().select({ hiddenAt: writings.hiddenAt }).from(writings).where(eq(writings.id, writing.id));
    expect(row!.hiddenAt).not.toBeNull();

    const restored = await resolve(moderatorVisitor, filed.case_id, "restore", "申诉成功");
    expect(restored.json()).toMatchObject({ decision: "restore", hidden: false });
    expect(restored.json().history.map((item: { action: string }) => item.action)).toEqual(["hide", "restore"]);
    expect((await reporterVisitor.request("GET", `/api/writings/${writing.id}/`)).statusCode).toBe(200);

    const decided = await subjectEvents("writing", writing.id, ["moderation.decided"]);
    expect(decided).toHaveLength(2);
    expect(decided[0]).toMatchObject({ actorId: moderator.id, data: { caseId: filed.case_id, action: "hide", note: "违规广告" } });
    expect([...decided[0]!.recipientIds].sort()).toEqual([reporter.id, author.id].sort());

    const deleted = await resolve(moderatorVisitor, filed.case_id, "delete", "删除");
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await db().select().from(writings).where(eq(writings.id, writing.id))).toHaveLength(0);
    expect((await reporterVisitor.request("GET", `/api/writings/${writing.id}/`)).statusCode).toBe(404);
    // The decided case stays as history; nothing more can be decided on it.
    const closed = await resolve(moderatorVisitor, filed.case_id, "restore");
    expect(closed.statusCode).toBe(409);
    expect(closed.json().code).toBe("case_closed");
    expect((await resolve(moderatorVisitor, 999_999, "hide")).statusCode).toBe(404);
    expect((await resolve(moderatorVisitor, filed.case_id, "ban")).statusCode).toBe(400);
  });

  it("moderator decisions never tell the moderator: a moderator who also reported is left out", async () => {
    const author = await createUser(db());
    const writing = await createWriting(db(), author);
    const { user: moderator, visitor } = await createSignedInUser(api.app, db(), { siteRole: "admin" });
    const filed = (await report(visitor, "writing", writing.id)).json();
    await resolve(visitor, filed.case_id, "dismiss", "");
    const [decided] = await subjectEvents("writing", writing.id, ["moderation.decided"]);
    expect(decided!.recipientIds).toEqual([author.id]);
    expect(decided!.recipientIds).not.toContain(moderator.id);
  });

  it("reopens a decided case only for a report on content edited since the decision", async () => {
    const author = await createUser(db());
    const writing = await createWriting(db(), author);
    const { visitor: moderator } = await createSignedInUser(api.app, db(), { siteRole: "moderator" });
    const firstReporter = await reader();
    const filed = (await report(firstReporter, "writing", writing.id)).json();
    await resolve(moderator, filed.case_id, "dismiss", "正常内容");

    // Unedited: a new reporter's report is kept on the decided case, which stays decided.
    const later = await report(await reader(), "writing", writing.id);
    expect(later.statusCode).toBe(201);
    expect(later.json()).toMatchObject({ case_id: filed.case_id, open: false });
    expect((await report(firstReporter, "writing", writing.id)).json().code).toBe("repeated_flagging");
    const open = (await cases(moderator)).json().results as { id: number }[];
    expect(open.map((item) => item.id)).not.toContain(filed.case_id);

    // Edited after the decision: a new case opens, and the first reporter may report again.
    const [edited] = await db()
      .update(writings)
      .set({ editedAt: new Date(Date.now() + 1000) })
      .where(eq(writings.id, writing.id))
      .returning();
    await invalidate(writingTags(edited!));
    const reopened = await report(firstReporter, "writing", writing.id);
    expect(reopened.statusCode, reopened.body).toBe(201);
    expect(reopened.json().case_id).not.toBe(filed.case_id);
    expect(reopened.json().open).toBe(true);
  });

  it("hides a comment from its thread and count, and reports books and users too", async () => {
    const author = await createUser(db());
    const writing = await createWriting(db(), author);
    const commenter = await createUser(db());
    const comment = await createComment(db(), writing.id, commenter, { body: "垃圾广告评论" });
    const { visitor: moderator } = await createSignedInUser(api.app, db(), { siteRole: "moderator" });
    const bystander = await reader();
    const thread = async () => (await bystander.request("GET", `/api/writings/${writing.id}/comments/`)).json();
    expect((await thread()).items.map((item: { id: number }) => item.id)).toContain(comment.id);

    const filed = (await report(bystander, "comment", comment.id)).json();
    await resolve(moderator, filed.case_id, "hide", "广告");
    const after = await thread();
    expect(after.items.map((item: { id: number }) => item.id)).not.toContain(comment.id);
    expect(after.total).toBe(0);
    const [stored] = await db().select({ hiddenAt: comments.hiddenAt }).from(comments).where(eq(comments.id, comment.id));
    expect(stored!.hiddenAt).not.toBeNull();

    const book = await createBook(db(), author, { chapters: ["第一章"] });
    expect((await report(bystander, "book", book.id)).statusCode).toBe(201);
    expect((await report(bystander, "chapter", book.chapters[0]!.id)).statusCode).toBe(201);
    const userReport = await report(bystander, "user", author.id, { reason: "harassment", description: "" });
    expect(userReport.statusCode).toBe(201);
    const userCase = (await resolve(moderator, userReport.json().case_id, "hide", "")).json();
    expect(userCase).toMatchObject({ hidden: true, subject: { type: "user", id: author.id } });
    expect((await bystander.request("PUT", `/api/subjects/user/${author.id}/reaction/`, { json: { reaction: "like" } })).statusCode).toBe(
      404,
    );
    // Users cannot be deleted by moderators.
    const unavailable = await resolve(moderator, userReport.json().case_id, "delete", "");
    expect(unavailable.json().code).toBe("moderation_action_unavailable");
    expect(await db().select().from(reports).where(eq(reports.caseId, userReport.json().case_id))).toHaveLength(1);
  });
  it("weighs reports by their reporters' standing: accounts made a moment ago do not hide together what three seasoned readers do", async () => {
    const author = await createUser(db());
    const writing = await createWriting(db(), author, { title: "新号举报" });
    for (let index = 0; index < 5; index += 1) {
      const fresh = (await createSignedInUser(api.app, db())).visitor;
      expect((await report(fresh, "writing", writing.id)).json()).toMatchObject({ hidden: false, open: true });
    }
    const weights = await db()
      .select({ weight: reports.weight })
      .from(reports)
      .innerJoin(moderationCases, eq(moderationCases.id, reports.caseId))
      .where(eq(moderationCases.subjectId, writing.id));
    expect(weights.map((row) => row.weight)).toEqual([0.2, 0.2, 0.2, 0.2, 0.2]);
    // 1.0 so far; two seasoned readers bring it to 3.0, the threshold here.
    expect((await report(await reader(), "writing", writing.id)).json().hidden).toBe(false);
    expect((await report(await reader(), "writing", writing.id)).json().hidden).toBe(true);
  });
  it("leaves the cases of members-only and restricted circles to their own moderators: a site moderator neither lists nor decides them", async () => {
    const { visitor: siteModerator } = await createSignedInUser(api.app, db(), { siteRole: "moderator" });
    for (const visibility of ["members", "circle"] as const) {
      const circle = await createCircle(db(), { visibility });
      const author = await createUser(db());
      const member = await createUser(db(), { createdAt: seasoned() });
      const master = await createUser(db());
      await addMember(db(), circle.id, author.id);
      await addMember(db(), circle.id, member.id);
      await addMember(db(), circle.id, master.id, "master");
      const writing = await createWriting(db(), author, { circleId: circle.id, title: `闭门圈子 ${visibility}` });
      const filed = await report(await signedInVisitor(api.app, db(), member), "writing", writing.id);
      expect(filed.statusCode, filed.body).toBe(201);
      const caseId = (filed.json() as { case_id: number }).case_id;
      expect((await siteModerator.get(`/api/writings/${writing.id}/`)).statusCode).toBe(404);
      const queue = (await cases(siteModerator)).json() as { results: { id: number }[] };
      expect(queue.results.map((item) => item.id)).not.toContain(caseId);
      expect((await resolve(siteModerator, caseId, "hide")).statusCode).toBe(403);
      expect((await resolve(await signedInVisitor(api.app, db(), master), caseId, "hide")).statusCode).toBe(200);
    }
    // A public circle's case is theirs as before.
    const writing = await createWriting(db(), await createUser(db()), { title: "公开圈子" });
    const filed = await report(await reader(), "writing", writing.id);
    const caseId = (filed.json() as { case_id: number }).case_id;
    expect(((await cases(siteModerator)).json() as { results: { id: number }[] }).results.map((item) => item.id)).toContain(caseId);
    expect((await resolve(siteModerator, caseId, "dismiss")).statusCode).toBe(200);
  });
});
