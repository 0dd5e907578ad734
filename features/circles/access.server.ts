import { eq, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Executor } from "../../server/db/client.ts";
import { preparedQuery } from "../../server/lib/prepared.ts";
import { keyedMemory } from "../../server/lib/keyed-memory.ts";
import { circleMembers } from "../../server/db/schema/index.ts";
import { circleRows } from "./tree.server.ts";
import type { CircleRow } from "./presenter.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { AppError } from "../../common/app-error.ts";
import { authorize } from "../../common/policy.ts";
import { can, canReadCircleContent, canViewCircle, type CircleAccess, type CircleAction, type CircleRole } from "./policy.ts";

const membershipsQuery = preparedQuery((db) =>
  db
    .select({ circleId: circleMembers.circleId, role: circleMembers.role })
    .from(circleMembers)
    .where(eq(circleMembers.userId, sql.placeholder("user")))
    .prepare("circles_memberships_of"),
);

/**
 * A user's memberships, remembered between requests (nearly every page reads them). Every write
 * of `circle_members` invalidates `membershipTag(userId)`: joining, leaving, a role change, a
 * removal, a new circle's founder.
 */
const memberships = keyedMemory<{ circleId: number; role: CircleRole }[]>("members", { ttlMs: 60_000, maxEntries: 20_000 });

/** The tag a write of a user's memberships invalidates. */
export const membershipTag = (userId: number): string => memberships.tag(userId);

/**
 * Every circle's access facts for one viewer, computed from the whole tree (held in memory, see
 * `tree.server.ts`) and the viewer's memberships (remembered, see `memberships`), once per tree and
 * memberships (a page asks several times): the map is shared, never change it.
 */
export async function loadCircleAccessMap(db: Executor, viewer: Pick<Viewer, "id"> | null): Promise<Map<number, CircleAccess>> {
  const [rows, mine] = await Promise.all([
    circleRows(db),
    viewer ? memberships.read(db, viewer.id, () => membershipsQuery(db).execute({ user: viewer.id })) : Promise.resolve(noMemberships),
  ]);
  // The same tree and the same remembered memberships give the same map: computed once, shared.
  let byMemberships = accessMaps.get(rows);
  if (!byMemberships) accessMaps.set(rows, (byMemberships = new WeakMap()));
  const known = byMemberships.get(mine);
  if (known) return known;
  const computed = accessMapOf(rows, mine);
  byMemberships.set(mine, computed);
  return computed;
}

/** Access maps by tree rows and memberships (both remembered objects, replaced when they change). */
const accessMaps = new WeakMap<
  readonly CircleRow[],
  WeakMap<readonly { circleId: number; role: CircleRole }[], Map<number, CircleAccess>>
>();
/** A visitor's memberships: none, one object so their map is remembered too. */
const noMemberships: readonly { circleId: number; role: CircleRole }[] = Object.freeze([]);

function accessMapOf(rows: readonly CircleRow[], mine: readonly { circleId: number; role: CircleRole }[]): Map<number, CircleAccess> {
  const roles = new Map<number, CircleRole>(mine.map((row) => [row.circleId, row.role]));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const accesses = new Map<number, CircleAccess>();
  const visit = (id: number, depth = 0): CircleAccess | undefined => {
    const known = accesses.get(id);
    if (known) return known;
    const circle = byId.get(id);
    if (!circle || depth > 64) return undefined;
    const parent = circle.parentId === null ? undefined : visit(circle.parentId, depth + 1);
    const access: CircleAccess = {
      circle,
      role: roles.get(id) ?? null,
      parentMember: circle.parentId !== null && roles.has(circle.parentId),
      parentVisible: circle.parentId === null || (parent !== undefined && canViewCircle(parent)),
    };
    accesses.set(id, access);
    return access;
  };
  for (const row of rows) visit(row.id);
  return accesses;
}

/** One circle's access facts, or null when it does not exist. */
export async function loadCircleAccess(db: Executor, viewer: Pick<Viewer, "id"> | null, circleId: number): Promise<CircleAccess | null> {
  return (await loadCircleAccessMap(db, viewer)).get(circleId) ?? null;
}

/**
 * Ids of the circles whose content the viewer may read: lists, feeds, search, the sitemap and
 * counts filter by this (`inArray(writings.circleId, ids)`).
 */
export async function readableCircleIds(db: Executor, viewer: Pick<Viewer, "id"> | null): Promise<number[]> {
  return [...(await loadCircleAccessMap(db, viewer)).values()].filter(canReadCircleContent).map((access) => access.circle.id);
}

/**
 * The circles whose content the viewer may read, as the shorter list for a query's condition
 * (`inReadableCircles`): the readable ones, or, when the viewer may read most of them, the
 * unreadable ones (`except`). A list condition of 200 ids in each of a feed's five ranges cost
 * more to plan than to run (17 ms against 2 ms at 100k writings); the viewer usually reads nearly
 * every circle, so the exclusion is a handful.
 */
export interface ReadableCircles {
  ids: readonly number[];
  except: boolean;
  /** The highest circle id known: with `except`, a circle made since the tree was read counts as unreadable until it is read again. */
  maxId: number;
}

export async function readableCircles(db: Executor, viewer: Pick<Viewer, "id"> | null): Promise<ReadableCircles> {
  const map = await loadCircleAccessMap(db, viewer);
  const known = readableLists.get(map);
  if (known) return known;
  const lists = circlesWhere(map, canReadCircleContent);
  readableLists.set(map, lists);
  return lists;
}

/** The circles of an access map that pass `test`, as the shorter of the list and its complement. */
export function circlesWhere(map: Map<number, CircleAccess>, test: (access: CircleAccess) => boolean): ReadableCircles {
  const passing: number[] = [];
  const failing: number[] = [];
  let maxId = 0;
  for (const access of map.values()) {
    (test(access) ? passing : failing).push(access.circle.id);
    maxId = Math.max(maxId, access.circle.id);
  }
  return failing.length < passing.length ? { ids: failing, except: true, maxId } : { ids: passing, except: false, maxId };
}

/** The lists by access map (remembered as long as the map is). */
const readableLists = new WeakMap<Map<number, CircleAccess>, ReadableCircles>();

/** Nothing is readable: lists answer empty without a query. */
export const noneReadable = (circles: ReadableCircles): boolean => !circles.except && circles.ids.length === 0;

/** Whether the viewer may read this circle's content, by the list. */
export function isReadable(circles: ReadableCircles, circleId: number): boolean {
  return circles.except ? circleId <= circles.maxId && !circles.ids.includes(circleId) : circles.ids.includes(circleId);
}

/** The condition "`column` names a circle the viewer may read", with the ids as one array parameter. */
export function inReadableCircles(column: AnyPgColumn | SQL, circles: ReadableCircles): SQL {
  const ids = `{${circles.ids.join(",")}}`;
  if (!circles.except) return sql`${column} = any(${ids}::integer[])`;
  if (circles.ids.length === 0) return sql`${column} <= ${circles.maxId}`;
  return sql`(${column} <= ${circles.maxId} and ${column} <> all(${ids}::integer[]))`;
}

/** Ids of the circles the viewer may see listed. */
export async function visibleCircleIds(db: Executor, viewer: Pick<Viewer, "id"> | null): Promise<number[]> {
  return [...(await loadCircleAccessMap(db, viewer)).values()].filter(canViewCircle).map((access) => access.circle.id);
}

/**
 * The guard of every circle route: a circle the viewer may not see is a 404, whether or not it
 * exists (never reveal a hidden circle); one they see but may not act on is a 401 for visitors
 * and a 403 otherwise. With `signedIn`, visitors get the 401 before anything is looked up (write
 * routes and management pages send them to log in, whatever the id).
 */
export async function requireCircle(
  db: Executor,
  viewer: Viewer | null,
  circleId: number,
  action: CircleAction = "view",
  options: { signedIn?: boolean } = {},
): Promise<CircleAccess> {
  if (options.signedIn && !viewer) throw new AppError("not_authenticated");
  const access = await loadCircleAccess(db, viewer, circleId);
  if (!access || !canViewCircle(access)) throw new AppError("not_found");
  authorize(viewer, can(viewer, action, access));
  return access;
}
