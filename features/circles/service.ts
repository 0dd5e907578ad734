import { and, asc, desc, eq, ilike, inArray, ne, or, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { circleMembers, circles, users } from "../../server/db/schema/index.ts";
import type { Locale } from "../../common/locale.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { loadCircleAccessMap } from "./access.server.ts";
import { circleRowById, circleRows } from "./tree.server.ts";
import { can, canReadCircleContent, canViewCircle, circlePermissions, type CircleAction, type CircleRole } from "./policy.ts";
import { rememberedCircleCounts, type CircleContentCounts } from "./counts.ts";
import { presentCircle, type CircleRow, type CircleView } from "./presenter.ts";

export type { CircleRow, CircleView } from "./presenter.ts";
export { presentCircle } from "./presenter.ts";

/**
 * What a viewer learns about a circle's size. Sub-circles count only those the viewer may see;
 * content counts are null when the viewer may not read the circle's content.
 */
export interface CircleCounts {
  members: number;
  subcircles: number;
  content: CircleContentCounts | null;
}

export interface CircleNode extends CircleView {
  /** The viewer's role in the circle, null when not a member. */
  role: CircleRole | null;
  /** The viewer may join it from the list (signed in, not a member, and the circle takes them). */
  joinable: boolean;
  counts: CircleCounts;
  children: CircleNode[];
}

/** The nearest ancestor the viewer may see (members of a hidden circle's sub-circle see it under that ancestor). */
function visibleParentId(row: CircleRow, byId: Map<number, CircleRow>, visible: Set<number>): number | null {
  let parentId = row.parentId;
  for (let depth = 0; parentId !== null && depth < 64; depth += 1) {
    if (visible.has(parentId)) return parentId;
    parentId = byId.get(parentId)?.parentId ?? null;
  }
  return null;
}

/** Both languages' names, lower-cased, contain the query (a filter matches either language). */
export function circleNameMatches(row: Pick<CircleRow, "nameZh" | "nameEn">, query: string): boolean {
  const needle = query.trim().toLocaleLowerCase();
  return needle === "" || row.nameZh.toLocaleLowerCase().includes(needle) || row.nameEn.toLocaleLowerCase().includes(needle);
}

/**
 * The tree of the circles the viewer may see, from the global village down, with counts. With a
 * query, only circles whose name (in either language) contains it remain, with their ancestors.
 * `collapsed` (the tree page without a query): only the top levels — the roots and their
 * children — plus, for `open`, the branch down to it with its siblings and its own children; a
 * node whose `children` is empty while `counts.subcircles` is not is a closed branch.
 */
export async function listCircleTree(
  db: Executor,
  viewer: Viewer | null,
  locale: Locale,
  options: { query?: string; collapsed?: boolean; open?: number | null } = {},
): Promise<CircleNode[]> {
  const [rows, accesses, counted] = await Promise.all([circleRows(db), loadCircleAccessMap(db, viewer), rememberedCircleCounts(db)]);
  const members = counted.members;
  const byId = new Map(rows.map((row) => [row.id, row]));
  const visibleRows = rows.filter((row) => {
    const access = accesses.get(row.id);
    return access !== undefined && canViewCircle(access);
  });
  const visible = new Set(visibleRows.map((row) => row.id));
  const readable = new Set(visibleRows.filter((row) => canReadCircleContent(accesses.get(row.id)!)).map((row) => row.id));
  const content = new Map([...counted.content].filter(([id]) => readable.has(id)));

  const parentOf = new Map(visibleRows.map((row) => [row.id, visibleParentId(row, byId, visible)]));
  const childCount = new Map<number, number>();
  for (const parentId of parentOf.values()) if (parentId !== null) childCount.set(parentId, (childCount.get(parentId) ?? 0) + 1);

  let kept = visible;
  if (options.query?.trim()) {
    kept = new Set<number>();
    for (const row of visibleRows) {
      if (!circleNameMatches(row, options.query)) continue;
      for (let id: number | null = row.id; id !== null && !kept.has(id); id = parentOf.get(id) ?? null) kept.add(id);
    }
  }

  const nodes = new Map<number, CircleNode>();
  for (const row of visibleRows) {
    if (!kept.has(row.id)) continue;
    nodes.set(row.id, {
      ...presentCircle(row, locale),
      parentId: parentOf.get(row.id) ?? null,
      role: accesses.get(row.id)!.role,
      joinable: viewer !== null && can(viewer, "join", accesses.get(row.id)!),
      counts: { members: members.get(row.id) ?? 0, subcircles: childCount.get(row.id) ?? 0, content: content.get(row.id) ?? null },
      children: [],
    });
  }
  const roots: CircleNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  if (options.collapsed && !options.query?.trim()) {
    const open = new Set(roots.map((root) => root.id));
    for (let id = options.open ?? null; id !== null && nodes.has(id) && !open.has(id); id = nodes.get(id)!.parentId) open.add(id);
    for (const node of nodes.values()) if (!open.has(node.id)) node.children = [];
  }
  return roots;
}

/** A member shown on a circle's page: founder, super administrators, administrators, masters. */
export interface CircleStaffMember {
  userId: number;
  username: string;
  nickname: string;
  avatar: string | null;
  role: CircleRole;
  joinedAt: string;
}

const roleOrder = sql`case ${circleMembers.role} when 'founder' then 5 when 'super_admin' then 4 when 'admin' then 3 when 'master' then 2 else 1 end`;
export { roleOrder as circleRoleOrder };

async function loadStaff(db: Executor, circleId: number): Promise<CircleStaffMember[]> {
  const rows = await db
    .select({
      userId: users.id,
      username: users.username,
      nickname: users.nickname,
      avatar: users.avatar,
      role: circleMembers.role,
      joinedAt: circleMembers.joinedAt,
    })
    .from(circleMembers)
    .innerJoin(users, eq(users.id, circleMembers.userId))
    .where(and(eq(circleMembers.circleId, circleId), ne(circleMembers.role, "member")))
    .orderBy(desc(roleOrder), asc(circleMembers.joinedAt))
    .limit(60);
  return rows.map((row) => ({ ...row, joinedAt: row.joinedAt.toISOString() }));
}

export interface CirclePage {
  circle: CircleView;
  /** From the root down to the parent: only the ancestors the viewer may see. */
  ancestors: CircleView[];
  children: (CircleView & { counts: CircleCounts })[];
  counts: CircleCounts;
  staff: CircleStaffMember[];
  /** The viewer's role, null when not a member. */
  role: CircleRole | null;
  can: Record<CircleAction, boolean>;
}

/** A circle's page as the viewer may see it, or null when it does not exist or is hidden from them. */
export async function getCirclePage(db: Executor, viewer: Viewer | null, id: number, locale: Locale): Promise<CirclePage | null> {
  const [rows, accesses] = await Promise.all([circleRows(db), loadCircleAccessMap(db, viewer)]);
  const access = accesses.get(id);
  if (!access || !canViewCircle(access)) return null;
  const byId = new Map(rows.map((row) => [row.id, row]));
  const row = byId.get(id)!;
  const seen = (circleId: number) => {
    const other = accesses.get(circleId);
    return other !== undefined && canViewCircle(other);
  };
  const ancestors: CircleView[] = [];
  for (
    let parent = row.parentId === null ? undefined : byId.get(row.parentId);
    parent;
    parent = parent.parentId === null ? undefined : byId.get(parent.parentId)
  ) {
    if (seen(parent.id)) ancestors.unshift(presentCircle(parent, locale));
  }
  const childRows = rows.filter((candidate) => candidate.parentId === id && seen(candidate.id));
  const ids = [id, ...childRows.map((child) => child.id)];
  const readable = new Set(ids.filter((circleId) => canReadCircleContent(accesses.get(circleId)!)));
  const [counted, staff] = await Promise.all([rememberedCircleCounts(db), loadStaff(db, id)]);
  const members = counted.members;
  const content = new Map([...counted.content].filter(([circleId]) => readable.has(circleId)));
  const countsOf = (circleId: number): CircleCounts => ({
    members: members.get(circleId) ?? 0,
    subcircles: rows.filter((other) => other.parentId === circleId && seen(other.id)).length,
    content: content.get(circleId) ?? null,
  });
  return {
    circle: presentCircle(row, locale),
    ancestors,
    children: childRows.map((child) => ({ ...presentCircle(child, locale), counts: countsOf(child.id) })),
    counts: countsOf(id),
    staff,
    role: access.role,
    can: circlePermissions(viewer, access),
  };
}

/** Ids of a circle and its ancestors, nearest first (cache tags of a page showing the circle). */
export async function circleLineage(db: Executor, id: number): Promise<number[]> {
  const rows = await circleRows(db);
  const parentOf = new Map(rows.map((row) => [row.id, row.parentId]));
  const lineage: number[] = [];
  for (let current: number | null | undefined = id; current != null && lineage.length < 64; current = parentOf.get(current))
    lineage.push(current);
  return lineage;
}

/** Circles the viewer may see whose name or description, in either language, contains the query. */
export async function searchCircles(db: Executor, viewer: Viewer | null, query: string, locale: Locale, limit = 20): Promise<CircleView[]> {
  const accesses = await loadCircleAccessMap(db, viewer);
  const visible = [...accesses.values()].filter(canViewCircle).map((access) => access.circle.id);
  if (visible.length === 0) return [];
  const pattern = `%${query.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  const rows = await db
    .select()
    .from(circles)
    .where(
      and(
        inArray(circles.id, visible),
        or(
          ilike(circles.nameZh, pattern),
          ilike(circles.nameEn, pattern),
          ilike(circles.descriptionZh, pattern),
          ilike(circles.descriptionEn, pattern),
        ),
      ),
    )
    .orderBy(asc(circles.position), asc(circles.id))
    .limit(limit);
  return rows.map((row) => presentCircle(row, locale));
}

/** The full row, for the settings pages (texts of every language). Callers check access first. */
export async function getCircleRow(db: Executor, id: number): Promise<CircleRow | null> {
  return circleRowById(db, id);
}
