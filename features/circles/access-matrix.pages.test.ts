import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addCategory, addMember, createCircle, createUser, signedInVisitor } from "../../tests/support/factories.ts";
import { wholeSitemap } from "../../tests/support/sitemap.ts";
import { oneDatabaseKind } from "../../tests/support/database.ts";
import { circleMembers } from "../../server/db/schema/index.ts";

/**
 * Every circle route and page × every kind of viewer × every visibility: who is allowed, and
 * whether a refusal is a 404 (the circle's existence must not leak), a 403 or a login (401 or the
 * redirect). The expectations are written out by hand below, not computed by the policy under test.
 */
const visibilities = ["public", "circle", "parent", "members"] as const;
type Visibility = (typeof visibilities)[number];
const viewers = ["visitor", "stranger", "parent_member", "member", "master", "admin", "super_admin", "founder"] as const;
type Who = (typeof viewers)[number];
const roles = ["member", "master", "admin", "super_admin", "founder"] as const;

/** Who sees that the circle exists (spec: "only within the circle" lists it to everyone). */
const sees: Record<Visibility, Who[]> = {
  public: [...viewers],
  circle: [...viewers],
  parent: ["parent_member", ...roles],
  members: [...roles],
};
/** Who reads its content. */
const reads: Record<Visibility, Who[]> = {
  public: [...viewers],
  circle: [...roles],
  parent: ["parent_member", ...roles],
  members: [...roles],
};
const rank: Record<Who, number> = { visitor: 0, stranger: 0, parent_member: 0, member: 1, master: 2, admin: 3, super_admin: 4, founder: 5 };

interface Cell {
  visibility: Visibility;
  who: Who;
  view: boolean;
  read: boolean;
  signedIn: boolean;
}

/** The status a refused or allowed request gets. */
const guarded = (cell: Cell, allowed: boolean, ok: number, options: { signInFirst: boolean }) => {
  if (options.signInFirst && !cell.signedIn) return 401;
  if (!cell.view) return 404;
  if (allowed) return ok;
  return cell.signedIn ? 403 : 401;
};

describe.each(oneDatabaseKind)("circle access matrix on %s", (kind) => {
  let api: TestApi;
  let counter = 0;
  const fixtures = new Map<
    Visibility,
    { parentId: number; circleId: number; name: string; targetId: number; categoryId: number; visitors: Record<Who, Visitor> }
  >();

  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
    const db = api.database.db;
    for (const visibility of visibilities) {
      const parent = await createCircle(db);
      const name = `Matrix ${visibility} ${kind}`;
      const circle = await createCircle(db, { parentId: parent.id, visibility, nameEn: name, nameZh: `矩阵${visibility}${kind}` });
      // A sub-circle, so that an allowed DELETE is refused for it (409) rather than destroying the fixture.
      await createCircle(db, { parentId: circle.id });
      const target = await createUser(db);
      await addMember(db, circle.id, target.id);
      const category = await addCategory(db, circle.id, { name: `类别${visibility}` });
      const visitors = { visitor: new Visitor(api.app) } as Record<Who, Visitor>;
      for (const who of viewers.slice(1)) {
        const user = await createUser(db);
        const role = roles.find((candidate) => candidate === who);
        if (who === "parent_member") await addMember(db, parent.id, user.id);
        else if (role) await addMember(db, circle.id, user.id, role);
        visitors[who] = await signedInVisitor(api.app, db, user);
      }
      fixtures.set(visibility, { parentId: parent.id, circleId: circle.id, name, targetId: target.id, categoryId: category.id, visitors });
    }
  }, 600_000);
  afterAll(() => api?.close());

  const cells: Cell[] = visibilities.flatMap((visibility) =>
    viewers.map((who) => ({
      visibility,
      who,
      view: sees[visibility].includes(who),
      read: reads[visibility].includes(who),
      signedIn: who !== "visitor",
    })),
  );

  it.each(cells)("$visibility circle, $who: view $view, read $read", async (cell) => {
    const fixture = fixtures.get(cell.visibility)!;
    const db = api.database.db;
    const visitor = fixture.visitors[cell.who];
    const id = fixture.circleId;
    const manager = rank[cell.who] >= rank.admin;
    const results: Record<string, number> = {};
    const expected: Record<string, number> = {};
    const check = (label: string, response: LightMyRequestResponse, status: number) => {
      results[label] = response.statusCode;
      expected[label] = status;
    };
    const membershipOf = async (userId: number) =>
      (
        await db
          .select()
          .from(circleMembers)
          .where(and(eq(circleMembers.circleId, id), eq(circleMembers.userId, userId)))
      )[0];
    counter += 1;

    // --- API reads ---
    const tree = await visitor.get("/api/circles/");
    expect(JSON.stringify(tree.json()).includes(`"id":${id},`), "listed in GET /api/circles/").toBe(cell.view);
    check("GET circle", await visitor.get(`/api/circles/${id}/`), cell.view ? 200 : 404);
    check("GET members", await visitor.get(`/api/circles/${id}/members/`), guarded(cell, cell.read, 200, { signInFirst: false }));
    check("GET categories", await visitor.get(`/api/circles/${id}/categories/`), guarded(cell, cell.read, 200, { signInFirst: false }));

    // --- API writes (each allowed one leaves the fixture as it was) ---
    check(
      "PATCH circle",
      await visitor.request("PATCH", `/api/circles/${id}/`, { json: { description_en: `Edited ${counter}` } }),
      guarded(cell, manager, 200, { signInFirst: true }),
    );
    check(
      "DELETE circle",
      await visitor.request("DELETE", `/api/circles/${id}/`),
      guarded(cell, rank[cell.who] >= rank.super_admin, 409, { signInFirst: true }),
    );
    check(
      "POST sub-circle",
      await visitor.post("/api/circles/", { name: `Sub ${counter}`, parent_id: id }),
      guarded(cell, manager, 201, { signInFirst: true }),
    );
    check(
      "PUT role",
      await visitor.request("PUT", `/api/circles/${id}/members/${fixture.targetId}/role/`, { json: { role: "member" } }),
      guarded(cell, manager, 200, { signInFirst: true }),
    );
    check(
      "PUT roles",
      await visitor.request("PUT", `/api/circles/${id}/members/roles/`, { json: { user_ids: [fixture.targetId], role: "member" } }),
      guarded(cell, manager, 200, { signInFirst: true }),
    );
    const removable = await createUser(db);
    await addMember(db, id, removable.id);
    check(
      "DELETE member",
      await visitor.request("DELETE", `/api/circles/${id}/members/${removable.id}/`),
      guarded(cell, manager, 204, { signInFirst: true }),
    );
    check(
      "POST category",
      await visitor.post(`/api/circles/${id}/categories/`, { name: `新类别 ${counter}` }),
      guarded(cell, manager, 201, { signInFirst: true }),
    );
    check(
      "PATCH category",
      await visitor.request("PATCH", `/api/circles/${id}/categories/${fixture.categoryId}/`, { json: { position: 0 } }),
      guarded(cell, manager, 200, { signInFirst: true }),
    );
    const spare = await addCategory(db, id);
    check(
      "DELETE category",
      await visitor.request("DELETE", `/api/circles/${id}/categories/${spare.id}/`),
      guarded(cell, manager, 204, { signInFirst: true }),
    );

    const ownMembership = cell.signedIn && rank[cell.who] > 0;
    const joined = await visitor.post(`/api/circles/${id}/join/`);
    check("POST join", joined, guarded(cell, true, 200, { signInFirst: true }));
    const left = await visitor.post(`/api/circles/${id}/leave/`);
    check("POST leave", left, guarded(cell, cell.who !== "founder", 200, { signInFirst: true }));
    // Put the viewer back as they were.
    if (ownMembership && left.statusCode === 200) {
      const user = (await visitor.get("/api/Users/LoginAuth/")).json() as { user_id: number };
      if (!(await membershipOf(user.user_id)))
        await addMember(
          db,
          id,
          user.user_id,
          roles.find((role) => role === cell.who),
        );
    }

    // --- Pages ---
    const html = async (path: string) => {
      const response = await visitor.get(path);
      return { response, body: response.body };
    };
    // The tree page shows the top levels; the circle (a grandchild of the root) is linked once its parent's branch is open.
    const circlesPage = await html(`/circles?open=${fixture.parentId}`);
    expect(circlesPage.body.includes(`href="/circles/${id}"`), "linked from /circles?open=<parent>").toBe(cell.view);
    const circlePage = await html(`/circles/${id}`);
    check("page /circles/{id}", circlePage.response, cell.view ? 200 : 404);
    if (cell.view) expect(circlePage.body.includes('class="tabs-nav"'), "content tabs shown").toBe(cell.read);
    check("page /en/circles/{id}", (await html(`/en/circles/${id}`)).response, cell.view ? 200 : 404);
    const search = await html(`/en/search?q=${encodeURIComponent(fixture.name)}`);
    expect(search.body.includes(`href="/en/circles/${id}"`), "found by search").toBe(cell.view);
    for (const path of ["new", "settings", "settings/i18n", "settings/members", "settings/categories"]) {
      const page = await html(`/circles/${id}/${path}`);
      if (!cell.signedIn) {
        results[`page ${path}`] = page.response.statusCode;
        expected[`page ${path}`] = 302;
        expect(page.response.headers.location).toBe(`/login?next=${encodeURIComponent(`/circles/${id}/${path}`)}`);
      } else {
        check(`page ${path}`, page.response, guarded(cell, manager, 200, { signInFirst: true }));
      }
    }
    if (cell.who === "visitor") {
      const sitemap = await wholeSitemap(async (path) => (await html(path)).body);
      expect(sitemap.includes(`/circles/${id}</loc>`), "in the sitemap").toBe(cell.view);
    }
    expect(results).toEqual(expected);
  });
});
