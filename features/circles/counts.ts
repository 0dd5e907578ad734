import { count, inArray } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { circleMembers, circles } from "../../server/db/schema/index.ts";
import { taggedMemory } from "../../server/lib/tagged-memory.ts";
import { circlesTag } from "../../server/lib/cache-tags.ts";
import { kindsWith } from "../subjects/registry.ts";

/**
 * A kind's share of a circle's content counts (its registration's `circleContent`): the names it
 * counts under (`articles`, `posts`…, each shown as `kinds:counts.<name>`) and how many of each
 * every circle holds (its own, visible to readers of the circle: hidden content and extra
 * language versions left out).
 */
export interface CircleContentMember {
  counts: readonly string[];
  count(db: Executor, circleIds: number[]): Promise<Map<number, Record<string, number>>>;
}

/** Content counts by name, in the order the kinds register them (the order the counts show). */
export type CircleContentCounts = Record<string, number>;

/** Every name a registered kind counts circle content under, in registration order. */
export function circleContentNames(): string[] {
  return kindsWith("circleContent").flatMap((kind) => kind.circleContent.counts);
}

export function zeroContentCounts(): CircleContentCounts {
  return Object.fromEntries(circleContentNames().map((name) => [name, 0]));
}

/**
 * How much content each circle holds (its own, not its sub-circles'): the sum of what every
 * registered subject kind reports (`circleContent` in its registration), so circles never
 * read a content table. Callers show these only to viewers who may read the circle's content
 * (`can(viewer, "read_content", access)`).
 */
export async function countCircleContent(db: Executor, circleIds: number[]): Promise<Map<number, CircleContentCounts>> {
  if (circleIds.length === 0) return new Map();
  const counts = new Map(circleIds.map((id) => [id, zeroContentCounts()]));
  for (const kind of kindsWith("circleContent")) {
    for (const [circleId, part] of await kind.circleContent.count(db, circleIds)) {
      const total = counts.get(circleId);
      if (!total) continue;
      for (const name of kind.circleContent.counts) total[name] = (total[name] ?? 0) + (part[name] ?? 0);
    }
  }
  return counts;
}

/** Whether a circle holds any content (deleting it is refused then). */
export async function circleHasContent(db: Executor, circleId: number): Promise<boolean> {
  const counts = (await countCircleContent(db, [circleId])).get(circleId) ?? zeroContentCounts();
  return Object.values(counts).some((count) => count > 0);
}

/** Members per circle, for the given circles (all circles when omitted). */
export async function countMembers(db: Executor, circleIds?: number[]): Promise<Map<number, number>> {
  if (circleIds && circleIds.length === 0) return new Map();
  const rows = await db
    .select({ circleId: circleMembers.circleId, members: count() })
    .from(circleMembers)
    .where(circleIds ? inArray(circleMembers.circleId, circleIds) : undefined)
    .groupBy(circleMembers.circleId);
  return new Map(rows.map((row) => [row.circleId, Number(row.members)]));
}

export interface AllCircleCounts {
  content: Map<number, CircleContentCounts>;
  members: Map<number, number>;
}

/**
 * Content and member counts of every circle, remembered under `circlesTag`: every write that
 * changes a count (publishing or deleting a writing, book or entry; joining, leaving, removal; a
 * circle's creation or deletion) invalidates it after commit, as it does the tree pages showing
 * them. So the tree and the home page count nothing per request (at 100k writings the grouped
 * counts took longer than the rest of the page). Inside a transaction it always reads.
 */
const allCounts = taggedMemory<AllCircleCounts>("circles/counts", { ttlMs: 60_000, maxEntries: 1 });

export async function rememberedCircleCounts(db: Executor): Promise<AllCircleCounts> {
  return allCounts.read(db, 0, async () => {
    const ids = (await db.select({ id: circles.id }).from(circles)).map((row) => row.id);
    const [content, members] = await Promise.all([countCircleContent(db, ids), countMembers(db)]);
    return { value: { content, members }, tags: [circlesTag] };
  });
}
