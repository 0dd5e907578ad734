import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addCategory, addMember, createCircle, createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { circleMembers, circles, events } from "../../server/db/schema/index.ts";
import { invalidate, onInvalidate } from "../../server/lib/invalidation.ts";
import { membershipTag } from "./access.server.ts";

interface TreeNode {
  id: number;
  name: string;
  role: string | null;
  counts: { members: number; subcircles: number; content: Record<string, number> | null };
  children: TreeNode[];
}

const flatten = (nodes: TreeNode[]): TreeNode[] => nodes.flatMap((node) => [node, ...flatten(node.children)]);

describe.each(databaseKinds)("circles API on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());

  const db = () => api.database.db;
  const signedIn = () => createSignedInUser(api.app, db());
  const eventsOf = (verb: string, subjectId: number) =>
    db()
      .select()
      .from(events)
      .where(and(eq(events.verb, verb), eq(events.subjectId, subjectId)));

  describe("creating", () => {
    it("creates a circle under the global village: 201 with id and url, the creator its founder, an event recorded", async () => {
      const { user, visitor } = await signedIn();
      const response = await visitor.post("/api/circles/", {
        name: "Rust 爱好者",
        description: "关于 Rust",
        visibility: "circle",
        default_language: "zh-CN",
        languages: ["zh-CN", "en"],
      });
      expect(response.statusCode).toBe(201);
      const { id, url } = response.json();
      expect(url).toBe(`/circles/${id}`);
      const [row] = await db().select().from(circles).where(eq(circles.id, id));
      expect(row).toMatchObject({
        parentId: 1,
        nameZh: "Rust 爱好者",
        nameEn: "Rust 爱好者",
        visibility: "circle",
        defaultLanguage: "zh-CN",
        languages: ["zh-CN", "en"],
        createdBy: user.id,
      });
      const members = await db().select().from(circleMembers).where(eq(circleMembers.circleId, id));
      expect(members).toEqual([expect.objectContaining({ userId: user.id, role: "founder" })]);
      expect(await eventsOf("circle.created", id)).toHaveLength(1);
    });

    it("keeps texts of unlisted languages empty and shows the default language's instead", async () => {
      const { visitor } = await signedIn();
      const { id } = (await visitor.post("/api/circles/", { name: "只有中文", default_language: "zh-CN", languages: ["zh-CN"] })).json();
      const english = await visitor.get(`/api/circles/${id}/`, { "accept-language": "en" });
      expect(english.json().circle).toMatchObject({ name: "只有中文", languages: ["zh-CN"], default_language: "zh-CN" });
    });

    it("creates a sub-circle where the viewer is an administrator, and refuses elsewhere (403) or under a hidden circle (404)", async () => {
      const { user, visitor } = await signedIn();
      const parent = await createCircle(db());
      expect((await visitor.post("/api/circles/", { name: "子圈", parent_id: parent.id })).statusCode).toBe(403);
      await addMember(db(), parent.id, user.id, "admin");
      const created = await visitor.post("/api/circles/", { name: "子圈", parent_id: parent.id });
      expect(created.statusCode).toBe(201);
      const hidden = await createCircle(db(), { visibility: "members" });
      const refused = await visitor.post("/api/circles/", { name: "子圈", parent_id: hidden.id });
      expect(refused.statusCode).toBe(404);
      expect((await visitor.post("/api/circles/", { name: "子圈", parent_id: 99_999_999 })).statusCode).toBe(404);
    });

    it("refuses a name a sibling has in either language, whatever its case", async () => {
      const { visitor } = await signedIn();
      const taken = await visitor.post("/api/circles/", { name: "mathematics" }, { "accept-language": "en" });
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toEqual({
        code: "circle_name_taken",
        message: "A sibling circle already has this name.",
        fields: { name: "A sibling circle already has this name." },
      });
      expect((await visitor.post("/api/circles/", { name: "数学" })).statusCode).toBe(409);
      // The same name elsewhere in the tree is fine.
      expect((await visitor.post("/api/circles/", { name: "Poetry" })).statusCode).toBe(201);
    });

    it("validates input with localized field messages, and needs a session and the CSRF header", async () => {
      const { visitor } = await signedIn();
      const empty = await visitor.post("/api/circles/", { name: "  ", visibility: "secret" }, { "accept-language": "en" });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().fields).toEqual({ name: "Please enter the circle's name.", visibility: "Please choose who may see the circle." });
      const languages = await visitor.post(
        "/api/circles/",
        { name: "Go", default_language: "en", languages: ["zh-CN"] },
        { "accept-language": "en" },
      );
      expect(languages.json().fields).toEqual({ languages: "The default language must be one of the circle's languages." });
      expect((await visitor.post("/api/circles/", { name: "x".repeat(41) })).statusCode).toBe(400);
      expect((await visitor.post("/api/circles/", { name: "Go", extra: true })).statusCode).toBe(400);
      expect((await new Visitor(api.app).post("/api/circles/", { name: "Go" })).statusCode).toBe(401);
      expect((await visitor.request("POST", "/api/circles/", { json: { name: "Go" }, csrf: false })).statusCode).toBe(403);
    });
  });

  describe("reading", () => {
    it("lists the tree with member and sub-circle counts, honest zero content counts, and the viewer's role", async () => {
      const { user, visitor } = await signedIn();
      const circle = await createCircle(db(), { nameZh: "计数圈", nameEn: "Counting circle" });
      await createCircle(db(), { parentId: circle.id });
      await addMember(db(), circle.id, user.id, "master");
      await addMember(db(), circle.id, (await signedIn()).user.id);
      const tree = (await visitor.get("/api/circles/")).json() as { circles: TreeNode[]; can: { create: boolean } };
      expect(tree.can.create).toBe(true);
      const node = flatten(tree.circles).find((candidate) => candidate.id === circle.id)!;
      expect(node.role).toBe("master");
      expect(node.counts).toEqual({ members: 2, subcircles: 1, content: { articles: 0, books: 0, posts: 0, questions: 0, entries: 0 } });
      expect((await new Visitor(api.app).get("/api/circles/")).json().can.create).toBe(false);
    });

    it("filters the tree by name in both languages, keeping the ancestors of what matches", async () => {
      const visitor = new Visitor(api.app, { "accept-language": "en" });
      const english = (await visitor.get("/api/circles/?q=FICT")).json().circles as TreeNode[];
      expect(english.map((node) => node.name)).toEqual(["Global Village"]);
      expect(flatten(english).map((node) => node.name)).toEqual(["Global Village", "Literature", "Fiction"]);
      const chinese = flatten((await visitor.get(`/api/circles/?q=${encodeURIComponent("小说")}`)).json().circles);
      expect(chinese.map((node) => node.name)).toEqual(["Global Village", "Literature", "Fiction"]);
      expect((await visitor.get("/api/circles/?q=nothing-like-this")).json().circles).toEqual([]);
    });

    it("shows a circle with its breadcrumb, founder and administrators, and what the viewer may do", async () => {
      const founder = await signedIn();
      const admin = await signedIn();
      const { id } = (await founder.visitor.post("/api/circles/", { name: "读圈" })).json();
      await addMember(db(), id, admin.user.id, "admin");
      const page = (await new Visitor(api.app).get(`/api/circles/${id}/`)).json();
      expect(page.ancestors.map((ancestor: { id: number }) => ancestor.id)).toEqual([1]);
      expect(page.staff.map((member: { user_id: number; role: string }) => [member.user_id, member.role])).toEqual([
        [founder.user.id, "founder"],
        [admin.user.id, "admin"],
      ]);
      expect(page.counts.members).toBe(2);
      expect(page.role).toBeNull();
      expect(page.can).toMatchObject({ view: true, read_content: true, join: false, edit_settings: false });
      const own = (await founder.visitor.get(`/api/circles/${id}/`)).json();
      expect(own.role).toBe("founder");
      expect(own.can).toMatchObject({ leave: false, edit_settings: true, manage_members: true, delete: true });
    });

    it("never reveals a hidden circle: 404 like an unknown id, absent from the tree", async () => {
      const hidden = await createCircle(db(), { visibility: "members" });
      const stranger = (await signedIn()).visitor;
      expect((await stranger.get(`/api/circles/${hidden.id}/`)).statusCode).toBe(404);
      expect((await stranger.get(`/api/circles/${hidden.id}/members/`)).statusCode).toBe(404);
      expect(flatten((await stranger.get("/api/circles/")).json().circles).some((node) => node.id === hidden.id)).toBe(false);
    });
  });

  describe("settings", () => {
    it("renames per language with fallback to the default language, and invalidates the cached pages", async () => {
      const { visitor } = await signedIn();
      const { id } = (await visitor.post("/api/circles/", { name: "翻译圈", languages: ["zh-CN"] })).json();
      const tags: string[][] = [];
      const stop = onInvalidate((invalidated) => tags.push(invalidated));
      const response = await visitor.request("PATCH", `/api/circles/${id}/`, {
        json: { languages: ["zh-CN", "en"], name_en: "Translators", description_en: "We translate." },
      });
      stop();
      expect(response.statusCode).toBe(200);
      expect(tags.flat()).toEqual(expect.arrayContaining([`circle:${id}`, "circle:1", "circles", "home", "sitemap"]));
      expect((await visitor.get(`/api/circles/${id}/`, { "accept-language": "en" })).json().circle).toMatchObject({
        name: "Translators",
        description: "We translate.",
      });
      expect((await visitor.get(`/api/circles/${id}/`, { "accept-language": "zh-CN" })).json().circle.name).toBe("翻译圈");
      // Emptying the default language's name is refused; another language's may be empty.
      const emptied = await visitor.request("PATCH", `/api/circles/${id}/`, { json: { name_zh: "" } });
      expect(emptied.statusCode).toBe(400);
      expect(Object.keys(emptied.json().fields)).toEqual(["name_zh"]);
      expect((await visitor.request("PATCH", `/api/circles/${id}/`, { json: { name_en: "" } })).statusCode).toBe(200);
      expect((await visitor.get(`/api/circles/${id}/`, { "accept-language": "en" })).json().circle.name).toBe("翻译圈");
      expect(await eventsOf("circle.updated", id)).toHaveLength(2);
    });

    it("moves a circle to another parent where the viewer may create, never under itself", async () => {
      const { user, visitor } = await signedIn();
      const { id } = (await visitor.post("/api/circles/", { name: "搬家圈" })).json();
      const { id: child } = (await visitor.post("/api/circles/", { name: "搬家子圈", parent_id: id })).json();
      const cycle = await visitor.request("PATCH", `/api/circles/${id}/`, { json: { parent_id: child } });
      expect(cycle.statusCode).toBe(400);
      expect(cycle.json().fields).toHaveProperty("parent_id");
      const elsewhere = await createCircle(db());
      expect((await visitor.request("PATCH", `/api/circles/${child}/`, { json: { parent_id: elsewhere.id } })).statusCode).toBe(400);
      await addMember(db(), elsewhere.id, user.id, "admin");
      expect((await visitor.request("PATCH", `/api/circles/${child}/`, { json: { parent_id: elsewhere.id } })).statusCode).toBe(200);
      const [row] = await db().select().from(circles).where(eq(circles.id, child));
      expect(row!.parentId).toBe(elsewhere.id);
    });

    it("keeps the global village public and rooted", async () => {
      const { user, visitor } = await signedIn();
      await addMember(db(), 1, user.id, "founder");
      const response = await visitor.request("PATCH", "/api/circles/1/", { json: { visibility: "members" } });
      expect(response.statusCode).toBe(409);
      expect(response.json().code).toBe("circle_root_fixed");
      expect((await visitor.request("DELETE", "/api/circles/1/")).statusCode).toBe(409);
      await db()
        .delete(circleMembers)
        .where(and(eq(circleMembers.circleId, 1), eq(circleMembers.userId, user.id)));
      await invalidate([membershipTag(user.id)]);
    });

    it("deletes an empty circle only: refused while it has sub-circles, for administrators, and for visitors", async () => {
      const founder = await signedIn();
      const admin = await signedIn();
      const { id } = (await founder.visitor.post("/api/circles/", { name: "删除圈" })).json();
      const { id: child } = (await founder.visitor.post("/api/circles/", { name: "删除子圈", parent_id: id })).json();
      await addMember(db(), id, admin.user.id, "admin");
      expect((await admin.visitor.request("DELETE", `/api/circles/${id}/`)).statusCode).toBe(403);
      expect((await new Visitor(api.app).request("DELETE", `/api/circles/${id}/`)).statusCode).toBe(401);
      const busy = await founder.visitor.request("DELETE", `/api/circles/${id}/`);
      expect(busy.statusCode).toBe(409);
      expect(busy.json().code).toBe("circle_has_subcircles");
      expect((await founder.visitor.request("DELETE", `/api/circles/${child}/`)).statusCode).toBe(204);
      await addCategory(db(), id);
      expect((await founder.visitor.request("DELETE", `/api/circles/${id}/`)).statusCode).toBe(204);
      expect(await db().select().from(circles).where(eq(circles.id, id))).toEqual([]);
      expect(await db().select().from(circleMembers).where(eq(circleMembers.circleId, id))).toEqual([]);
      expect(await eventsOf("circle.deleted", id)).toHaveLength(1);
      expect((await founder.visitor.get(`/api/circles/${id}/`)).statusCode).toBe(404);
    });
  });

  describe("membership", () => {
    it("joins and leaves (both idempotent), counts members, records events; the founder stays", async () => {
      const founder = await signedIn();
      const { id } = (await founder.visitor.post("/api/circles/", { name: "加入圈" })).json();
      const { visitor } = await signedIn();
      const joined = await visitor.post(`/api/circles/${id}/join/`);
      expect(joined.statusCode).toBe(200);
      expect(joined.json()).toMatchObject({ joined: true, role: "member", member_count: 2, can: { leave: true, join: false } });
      expect((await visitor.post(`/api/circles/${id}/join/`)).json().member_count).toBe(2);
      const left = await visitor.post(`/api/circles/${id}/leave/`);
      expect(left.json()).toMatchObject({ joined: false, role: null, member_count: 1, can: { join: true } });
      expect((await visitor.post(`/api/circles/${id}/leave/`)).statusCode).toBe(200);
      expect(await eventsOf("circle.joined", id)).toHaveLength(1);
      expect(await eventsOf("circle.left", id)).toHaveLength(1);
      const founderLeaves = await founder.visitor.post(`/api/circles/${id}/leave/`, undefined, { "accept-language": "en" });
      expect(founderLeaves.statusCode).toBe(403);
      expect(founderLeaves.json()).toEqual({ code: "founder_cannot_leave", message: "The founder cannot leave the circle." });
      expect((await new Visitor(api.app).post(`/api/circles/${id}/join/`)).statusCode).toBe(401);
    });

    it("lets members of the parent join a parent-visible circle, and nobody outside join a members-only one", async () => {
      const parent = await createCircle(db());
      const child = await createCircle(db(), { parentId: parent.id, visibility: "parent" });
      const secret = await createCircle(db(), { parentId: parent.id, visibility: "members" });
      const { user, visitor } = await signedIn();
      expect((await visitor.post(`/api/circles/${child.id}/join/`)).statusCode).toBe(404);
      await addMember(db(), parent.id, user.id);
      expect((await visitor.post(`/api/circles/${child.id}/join/`)).statusCode).toBe(200);
      expect((await visitor.post(`/api/circles/${secret.id}/join/`)).statusCode).toBe(404);
    });
  });

  describe("members and roles", () => {
    async function circleWithMembers() {
      const founder = await signedIn();
      const superAdmin = await signedIn();
      const admin = await signedIn();
      const member = await signedIn();
      const { id } = (await founder.visitor.post("/api/circles/", { name: `角色圈${Date.now()}${Math.random()}`.slice(0, 30) })).json();
      await addMember(db(), id, superAdmin.user.id, "super_admin");
      await addMember(db(), id, admin.user.id, "admin");
      await addMember(db(), id, member.user.id, "member");
      return { id, founder, superAdmin, admin, member };
    }

    it("lists members highest role first, searches, pages and says what the viewer may do to each", async () => {
      const { id, founder, admin, member } = await circleWithMembers();
      for (let index = 0; index < 20; index += 1) await addMember(db(), id, (await signedIn()).user.id);
      const first = (await admin.visitor.get(`/api/circles/${id}/members/`)).json();
      expect(first.total).toBe(24);
      expect(first.page_size).toBe(20);
      expect(first.members).toHaveLength(20);
      expect(first.members.slice(0, 3).map((row: { role: string }) => row.role)).toEqual(["founder", "super_admin", "admin"]);
      expect(first.members[0].can).toEqual({ set_roles: [], remove: false });
      expect(first.members[3].can).toEqual({ set_roles: ["member", "master", "admin"], remove: true });
      expect(first.can.manage_members).toBe(true);
      expect((await admin.visitor.get(`/api/circles/${id}/members/?page=2`)).json().members).toHaveLength(4);
      const found = (await admin.visitor.get(`/api/circles/${id}/members/?q=${member.user.username}`)).json();
      expect(found.members.map((row: { user_id: number }) => row.user_id)).toEqual([member.user.id]);
      expect((await admin.visitor.get(`/api/circles/${id}/members/?role=founder`)).json().members[0].user_id).toBe(founder.user.id);
      expect((await member.visitor.get(`/api/circles/${id}/members/`)).json().can.manage_members).toBe(false);
    });

    it("promotes and demotes below one's own rank; never the founder, never a peer, never oneself", async () => {
      const { id, founder, superAdmin, admin, member } = await circleWithMembers();
      const put = (visitor: Visitor, userId: number, role: string) =>
        visitor.request("PUT", `/api/circles/${id}/members/${userId}/role/`, { json: { role } });
      expect((await put(admin.visitor, member.user.id, "master")).json()).toEqual({ user_id: member.user.id, role: "master" });
      expect((await put(admin.visitor, member.user.id, "admin")).statusCode).toBe(200);
      // The new administrator is now admin's peer: admin cannot take it back; the super administrator can.
      expect((await put(admin.visitor, member.user.id, "member")).statusCode).toBe(403);
      expect((await put(admin.visitor, member.user.id, "super_admin")).statusCode).toBe(403);
      expect((await put(superAdmin.visitor, member.user.id, "member")).statusCode).toBe(200);
      expect((await put(superAdmin.visitor, founder.user.id, "member")).statusCode).toBe(403);
      expect((await put(founder.visitor, founder.user.id, "member")).statusCode).toBe(403);
      expect((await put(founder.visitor, superAdmin.user.id, "founder")).statusCode).toBe(400);
      expect((await put(founder.visitor, superAdmin.user.id, "admin")).statusCode).toBe(200);
      expect((await put(member.visitor, admin.user.id, "member")).statusCode).toBe(403);
      expect((await put(founder.visitor, 99_999_999, "member")).statusCode).toBe(404);
      const changes = await eventsOf("circle.role_changed", id);
      expect(changes.map((event) => event.data)).toContainEqual({ userId: member.user.id, from: "member", to: "master" });
    });

    it("sets roles of several members at once, all or none, and removes members below one's rank", async () => {
      const { id, founder, superAdmin, admin, member } = await circleWithMembers();
      const other = await signedIn();
      await addMember(db(), id, other.user.id);
      const bulk = (visitor: Visitor, userIds: number[], role: string) =>
        visitor.request("PUT", `/api/circles/${id}/members/roles/`, { json: { user_ids: userIds, role } });
      // One of them is the admin's peer: nothing changes.
      expect((await bulk(admin.visitor, [member.user.id, superAdmin.user.id], "admin")).statusCode).toBe(403);
      const roleOf = async (userId: number) =>
        (
          await db()
            .select()
            .from(circleMembers)
            .where(and(eq(circleMembers.circleId, id), eq(circleMembers.userId, userId)))
        )[0]?.role;
      expect(await roleOf(member.user.id)).toBe("member");
      expect((await bulk(admin.visitor, [member.user.id, other.user.id], "admin")).statusCode).toBe(200);
      expect([await roleOf(member.user.id), await roleOf(other.user.id)]).toEqual(["admin", "admin"]);
      expect((await bulk(founder.visitor, [member.user.id, other.user.id, admin.user.id], "member")).statusCode).toBe(200);
      expect(await roleOf(admin.user.id)).toBe("member");
      expect((await admin.visitor.request("DELETE", `/api/circles/${id}/members/${member.user.id}/`)).statusCode).toBe(403);
      expect((await superAdmin.visitor.request("DELETE", `/api/circles/${id}/members/${member.user.id}/`)).statusCode).toBe(204);
      expect(await roleOf(member.user.id)).toBeUndefined();
      expect((await superAdmin.visitor.request("DELETE", `/api/circles/${id}/members/${founder.user.id}/`)).statusCode).toBe(403);
      expect(await eventsOf("circle.member_removed", id)).toHaveLength(1);
    });
  });

  describe("categories", () => {
    it("adds categories and subclasses, validates names (any script, no punctuation), keeps them unique in the circle", async () => {
      const { visitor } = await signedIn();
      const { id } = (await visitor.post("/api/circles/", { name: "分类圈" })).json();
      const base = `/api/circles/${id}/categories/`;
      const created = await visitor.post(base, { name: "  代数  几何 " });
      expect(created.statusCode).toBe(201);
      const algebra = created.json();
      expect(algebra.category).toMatchObject({ name: "代数 几何", parent_id: null, position: 0 });
      const sub = await visitor.post(base, { name: "Linear algebra 2", parent_id: algebra.id });
      expect(sub.statusCode).toBe(201);
      expect((await visitor.post(base, { name: "Deeper", parent_id: sub.json().id })).statusCode).toBe(400);
      const punctuation = await visitor.post(base, { name: "C++" }, { "accept-language": "en" });
      expect(punctuation.json().fields).toEqual({ name: "A category's name may contain only letters, digits and spaces." });
      expect((await visitor.post(base, { name: "линейная алгебра" })).statusCode).toBe(201);
      const duplicate = await visitor.post(base, { name: "LINEAR ALGEBRA 2" });
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json().code).toBe("category_name_taken");
      const list = (await new Visitor(api.app).get(base)).json();
      expect(list.can.manage_categories).toBe(false);
      expect(
        list.categories.map((category: { name: string; children: { name: string }[] }) => [
          category.name,
          category.children.map((child) => child.name),
        ]),
      ).toEqual([
        ["代数 几何", ["Linear algebra 2"]],
        ["линейная алгебра", []],
      ]);
    });

    it("renames, reorders and deletes only unused categories; others may not touch them", async () => {
      const founder = await signedIn();
      const { id } = (await founder.visitor.post("/api/circles/", { name: "排序圈" })).json();
      const [first, second, third] = [
        await addCategory(db(), id, { name: "一", position: 0 }),
        await addCategory(db(), id, { name: "二", position: 1 }),
        await addCategory(db(), id, { name: "三", position: 2 }),
      ];
      const path = (categoryId: number) => `/api/circles/${id}/categories/${categoryId}/`;
      const moved = await founder.visitor.request("PATCH", path(third.id), { json: { position: 0 } });
      expect(moved.json().category.position).toBe(0);
      const names = async () =>
        (await founder.visitor.get(`/api/circles/${id}/categories/`)).json().categories.map((category: { name: string }) => category.name);
      expect(await names()).toEqual(["三", "一", "二"]);
      expect((await founder.visitor.request("PATCH", path(first.id), { json: { name: "壹" } })).json().category.name).toBe("壹");
      expect((await founder.visitor.request("PATCH", path(first.id), { json: { name: "二" } })).statusCode).toBe(409);
      await addCategory(db(), id, { name: "二之一", parentId: second.id });
      const inUse = await founder.visitor.request("DELETE", path(second.id));
      expect(inUse.statusCode).toBe(409);
      expect(inUse.json().code).toBe("category_in_use");
      expect((await founder.visitor.request("DELETE", path(first.id))).statusCode).toBe(204);
      expect(await names()).toEqual(["三", "二"]);
      const stranger = await signedIn();
      expect((await stranger.visitor.request("DELETE", path(third.id))).statusCode).toBe(403);
      expect((await founder.visitor.request("DELETE", `/api/circles/${id}/categories/99999999/`)).statusCode).toBe(404);
      // A category id of another circle is not found through this one.
      const other = await createCircle(db());
      const foreign = await addCategory(db(), other.id);
      expect((await founder.visitor.request("DELETE", path(foreign.id))).statusCode).toBe(404);
      const verbs = (await db().select().from(events).where(eq(events.subjectId, id))).map((event) => event.verb);
      expect(verbs).toEqual(expect.arrayContaining(["circle.category_updated", "circle.category_deleted"]));
    });
  });
});
