import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { favorites, reactions, subjectCounts, type ReactionKind } from "../../server/db/schema/index.ts";
import { keyedMemory } from "../../server/lib/keyed-memory.ts";
import { taggedMemory, type TaggedMemory } from "../../server/lib/tagged-memory.ts";
import { countsTag } from "../../server/lib/cache-tags.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { subjectTypes, type SubjectType } from "../subjects/types.ts";
import { subjectKind } from "../subjects/registry.ts";
import { seesDislikes } from "./policy.ts";

/**
 * What a reading page's action bar shows (like, dislike, favourite), read from two memories so a
 * warm signed-in page reads no row: a subject's counts, remembered per kind under its counts tag;
 * and the viewer's own state, one per-user memory filled subject by subject and dropped (tag
 * `interactions:<userId>`) whenever the user reacts or favourites.
 */

export interface SubjectReactionCounts {
  likeCount: number;
  dislikeCount: number;
  favoriteCount: number;
  shareCount: number;
}

interface OwnState {
  reaction: ReactionKind | null;
  favorited: boolean;
}

/** What a page's action bar starts from. */
export interface InteractionSummary {
  reaction: ReactionKind | null;
  like_count: number;
  /** Only for the subject's author. */
  dislike_count?: number;
  favorited: boolean;
  favorite_count: number;
  share_count: number;
  /** Readers may tip it: its kind accepts tips (its subject registration) and they are switched on for it. */
  tips: boolean;
  /** The other interactions its kind's registration accepts (`interactions`): the action bar shows exactly these. */
  accepts: { reactions: boolean; favorites: boolean; shares: boolean; reports: boolean };
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

const countsMemories = new Map<SubjectType, TaggedMemory<SubjectReactionCounts>>(
  subjectTypes.map((type) => [
    type,
    taggedMemory<SubjectReactionCounts>(`interaction-counts-${type}`, { ttlMs: 60_000, maxEntries: 20_000 }),
  ]),
);
const own = keyedMemory<Map<string, OwnState>>("interactions", { ttlMs: 60_000, maxEntries: 20_000 });
const perUserLimit = 500;

/** The tag a user's reaction or favourite invalidates (their per-user memory). */
export function viewerReactionsTag(userId: number): string {
  return own.tag(userId);
}

export async function subjectReactionCounts(db: Executor, type: SubjectType, id: number): Promise<SubjectReactionCounts> {
  return countsMemories.get(type)!.read(db, id, async () => {
    const [row] = await db
      .select({
        likeCount: subjectCounts.likeCount,
        dislikeCount: subjectCounts.dislikeCount,
        favoriteCount: subjectCounts.favoriteCount,
        shareCount: subjectCounts.shareCount,
      })
      .from(subjectCounts)
      .where(and(eq(subjectCounts.subjectType, type), eq(subjectCounts.subjectId, id)));
    return { value: row ?? { likeCount: 0, dislikeCount: 0, favoriteCount: 0, shareCount: 0 }, tags: [countsTag(type, id)] };
  });
}

async function ownState(db: Executor, userId: number, type: SubjectType, id: number): Promise<OwnState> {
  const known = await own.read(db, userId, async () => new Map());
  const key = `${type}:${id}`;
  const remembered = known.get(key);
  if (remembered) return remembered;
  const result = await db.execute(sql`
    select
      (select ${reactions.kind} from ${reactions}
        where ${reactions.userId} = ${userId} and ${reactions.subjectType} = ${type} and ${reactions.subjectId} = ${id}) as reaction,
      exists (select 1 from ${favorites}
        where ${favorites.userId} = ${userId} and ${favorites.subjectType} = ${type} and ${favorites.subjectId} = ${id}) as favorited
  `);
  const row = (result as unknown as { rows: { reaction: ReactionKind | null; favorited: boolean }[] }).rows[0];
  const state: OwnState = { reaction: row?.reaction ?? null, favorited: row?.favorited === true };
  if (known.size >= perUserLimit) known.clear();
  known.set(key, state);
  return state;
}

/** Whether the action bar offers tips: the registry says which kinds accept them, the kind whether this one has them on. */
async function acceptsTips(db: Executor, subject: { type: SubjectType; id: number; tipsSwitchedOn?: boolean }): Promise<boolean> {
  const tips = subjectKind(subject.type).interactions;
  if (tips?.tips !== true) return false;
  return subject.tipsSwitchedOn ?? (tips.tipsSwitchedOn ? tips.tipsSwitchedOn(db, subject.id) : true);
}

/** The action bar's starting state for this viewer: counts for everyone, the own state when signed in, dislikes for the author. */
export async function interactionSummary(
  db: Executor,
  viewer: Viewer | null,
  /** `tipsSwitchedOn`: what the page already read of its subject's own tips switch, saving the kind's query. */
  subject: { type: SubjectType; id: number; authorId: number | null; tipsSwitchedOn?: boolean },
): Promise<InteractionSummary> {
  const [counts, mine, tips] = await Promise.all([
    subjectReactionCounts(db, subject.type, subject.id),
    viewer ? ownState(db, viewer.id, subject.type, subject.id) : Promise.resolve({ reaction: null, favorited: false }),
    acceptsTips(db, subject),
  ]);
  const declared = subjectKind(subject.type).interactions ?? {};
  const summary: InteractionSummary = {
    reaction: mine.reaction,
    like_count: counts.likeCount,
    favorited: mine.favorited,
    favorite_count: counts.favoriteCount,
    share_count: counts.shareCount,
    tips,
    accepts: {
      reactions: declared.reactions === true,
      favorites: declared.favorites === true,
      shares: declared.shares === true,
      reports: declared.reports === true,
    },
  };
  if (seesDislikes(viewer, subject)) summary.dislike_count = counts.dislikeCount;
  return summary;
}
