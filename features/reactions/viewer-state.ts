import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { reactions, subjectCounts, type ReactionKind } from "../../server/db/schema/index.ts";
import { keyedMemory } from "../../server/lib/keyed-memory.ts";
import { taggedMemory, type TaggedMemory } from "../../server/lib/tagged-memory.ts";
import { countsTag } from "../../server/lib/cache-tags.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { subjectTypes, type SubjectType } from "../subjects/types.ts";
import { seesDislikes } from "./policy.ts";

export interface SubjectReactionCounts {
  likeCount: number;
  dislikeCount: number;
}

/** The viewer's reactions to many subjects of one kind. */
export async function viewerReactions(
  db: Executor,
  viewerId: number,
  type: SubjectType,
  ids: number[],
): Promise<Map<number, ReactionKind>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: reactions.subjectId, kind: reactions.kind })
    .from(reactions)
    .where(and(eq(reactions.userId, viewerId), eq(reactions.subjectType, type), inArray(reactions.subjectId, ids)));
  return new Map(rows.map((row) => [row.id, row.kind]));
}

/** What a page's action bar starts from. */
export interface ReactionSummary {
  reaction: ReactionKind | null;
  like_count: number;
  /** Only for the subject's author. */
  dislike_count?: number;
}

/**
 * A subject's counts, remembered under its counts tag (a reaction, a comment invalidates it), one
 * memory per kind since memories are keyed by id.
 */
const countsMemories = new Map<SubjectType, TaggedMemory<SubjectReactionCounts>>(
  subjectTypes.map((type) => [type, taggedMemory<SubjectReactionCounts>(`reaction-counts-${type}`, { ttlMs: 60_000, maxEntries: 20_000 })]),
);

/**
 * The viewer's own reactions, one per-user memory (the `reactions:<userId>` tag drops it whenever
 * the user reacts), filled subject by subject as pages ask: a warm signed-in reading page reads
 * no reaction row.
 */
const mine = keyedMemory<Map<string, ReactionKind | null>>("reactions", { ttlMs: 60_000, maxEntries: 20_000 });
const perUserLimit = 500;

/** The tag a user's reaction change invalidates (their per-user memory). */
export function viewerReactionsTag(userId: number): string {
  return mine.tag(userId);
}

export async function subjectReactionCounts(db: Executor, type: SubjectType, id: number): Promise<SubjectReactionCounts> {
  return countsMemories.get(type)!.read(db, id, async () => {
    const [row] = await db
      .select({ likeCount: subjectCounts.likeCount, dislikeCount: subjectCounts.dislikeCount })
      .from(subjectCounts)
      .where(and(eq(subjectCounts.subjectType, type), eq(subjectCounts.subjectId, id)));
    return { value: row ?? { likeCount: 0, dislikeCount: 0 }, tags: [countsTag(type, id)] };
  });
}

export async function viewerReaction(db: Executor, userId: number, type: SubjectType, id: number): Promise<ReactionKind | null> {
  const known = await mine.read(db, userId, async () => new Map());
  const key = `${type}:${id}`;
  if (known.has(key)) return known.get(key)!;
  const reaction = (await viewerReactions(db, userId, type, [id])).get(id) ?? null;
  if (known.size >= perUserLimit) known.clear();
  known.set(key, reaction);
  return reaction;
}

/** The action bar's starting state for this viewer: counts for everyone, the own reaction when signed in, dislikes for the author. */
export async function reactionSummary(
  db: Executor,
  viewer: Viewer | null,
  subject: { type: SubjectType; id: number; authorId: number | null },
): Promise<ReactionSummary> {
  const [counts, reaction] = await Promise.all([
    subjectReactionCounts(db, subject.type, subject.id),
    viewer ? viewerReaction(db, viewer.id, subject.type, subject.id) : Promise.resolve(null),
  ]);
  const summary: ReactionSummary = { reaction, like_count: counts.likeCount };
  if (seesDislikes(viewer, subject)) summary.dislike_count = counts.dislikeCount;
  return summary;
}
