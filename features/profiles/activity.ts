import { and, desc, eq, inArray } from "drizzle-orm";
import type { Database, Executor } from "../../server/db/client.ts";
import { circles, events, users } from "../../server/db/schema/index.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { readableCircleIds } from "../circles/access.server.ts";
import type { CircleRow } from "../circles/service.ts";
import type { EventVerb } from "../events/catalogue.ts";
import { kindsWith } from "../subjects/registry.ts";

/**
 * A kind's lines on its author's activity tab (its registration's `activity`): the event that
 * makes one (its subject is this kind's id; the page says it as `centre:profile.activity_<verb
 * with _ for .>`) and how to show the ones still there.
 */
export interface ActivityMember {
  verb: EventVerb;
  /** Those of `ids` that still exist and are not hidden: the circle each lives in, its title, page (without the /en prefix) and language. */
  load(db: Executor, ids: number[]): Promise<ActivityContent[]>;
}

export interface ActivityContent {
  id: number;
  circleId: number;
  title: string;
  path: string;
  language: string | null;
}

/** The activity lines that are not a kind's content: joining the site, following, creating and joining circles. */
const ownVerbs = ["user.registered", "user.followed", "circle.created", "circle.joined"] as const satisfies readonly EventVerb[];

/** The verbs the activity tab shows: its own, then each registered kind's. */
export function activityVerbs(): EventVerb[] {
  return [...ownVerbs, ...kindsWith("activity").map((kind) => kind.activity.verb)];
}

export type ActivityVerb = EventVerb;

export interface ActivityItem {
  id: number;
  verb: ActivityVerb;
  at: Date;
  /** The followed user, for `user.followed`. */
  target: { username: string; nickname: string } | null;
  /** The circle created or joined. */
  circle: CircleRow | null;
  /** The content published or created (`path` without the language prefix). */
  content: { title: string; path: string; language: string | null } | null;
}

/**
 * The public activity tab, newest first: joining the site, following, creating and joining
 * circles, and every kind's `activity` (publishing writings, creating books and entries). Lines
 * about circles or content the viewer may not read, or that are gone, are left out.
 */
export async function listActivity(
  db: Database,
  userId: number,
  viewer: Pick<Viewer, "id"> | null = null,
  limit = 30,
): Promise<ActivityItem[]> {
  const kinds = kindsWith("activity");
  const rows = await db
    .select({ id: events.id, verb: events.verb, at: events.createdAt, subjectId: events.subjectId })
    .from(events)
    .where(and(eq(events.actorId, userId), inArray(events.verb, activityVerbs())))
    .orderBy(desc(events.createdAt), desc(events.id))
    .limit(limit * 2);
  const idsOf = (...verbs: string[]) => [...new Set(rows.filter((row) => verbs.includes(row.verb)).map((row) => row.subjectId))];
  const userIds = idsOf("user.followed");
  const circleIds = idsOf("circle.created", "circle.joined");
  const readable = new Set(await readableCircleIds(db, viewer));
  const [userRows, circleRows, ...contentRows] = await Promise.all([
    userIds.length > 0
      ? db.select({ id: users.id, username: users.username, nickname: users.nickname }).from(users).where(inArray(users.id, userIds))
      : [],
    circleIds.length > 0 ? db.select().from(circles).where(inArray(circles.id, circleIds)) : [],
    ...kinds.map((kind) => {
      const ids = idsOf(kind.activity.verb);
      return ids.length > 0 ? kind.activity.load(db, ids) : Promise.resolve([]);
    }),
  ]);
  const usersById = new Map(userRows.map((row) => [row.id, row]));
  const circlesById = new Map(circleRows.filter((row) => readable.has(row.id)).map((row) => [row.id, row]));
  const content = new Map<string, ActivityItem["content"]>();
  kinds.forEach((kind, index) => {
    for (const row of contentRows[index] ?? [])
      if (readable.has(row.circleId))
        content.set(`${kind.activity.verb}:${row.id}`, { title: row.title, path: row.path, language: row.language });
  });
  const items: ActivityItem[] = [];
  for (const row of rows) {
    const verb = row.verb as ActivityVerb;
    const item: ActivityItem = { id: row.id, verb, at: row.at, target: null, circle: null, content: null };
    if (verb === "user.followed") {
      const target = usersById.get(row.subjectId);
      if (!target) continue;
      item.target = { username: target.username, nickname: target.nickname };
    } else if (verb === "circle.created" || verb === "circle.joined") {
      const circle = circlesById.get(row.subjectId);
      if (!circle) continue;
      item.circle = circle;
    } else if (verb !== "user.registered") {
      const found = content.get(`${verb}:${row.subjectId}`);
      if (!found) continue;
      item.content = found;
    }
    items.push(item);
    if (items.length === limit) break;
  }
  return items;
}
