import type { SQL } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { countInstance } from "../../server/lib/single-instance.ts";
import { kindsWith } from "../subjects/registry.ts";
import type { ReadableCircles } from "../circles/access.server.ts";
import type { FeedCard, FeedTab } from "./types.ts";

/**
 * The feeds' view of the subject registry: every kind of content that appears in the home feeds
 * declares, as the `feed` member of its subject registration (written in its own
 * `features/<domain>/feed.ts`), how to find its newest or hottest items and how to show them as
 * cards. `listFeed` (service.ts) is the union over them, so a new kind appears in Latest, All, Hot
 * and Follow by declaring it.
 */
countInstance("feeds/registry");

/** The sort key a feed pages by: the publication time (µs since the epoch, digits) or the stored Hot score. */
export type FeedCursor = { time: string; id: number; kind: string } | { score: number; id: number; kind: string };

/** What a kind's candidates must meet. */
export interface FeedScope {
  tab: FeedTab;
  /** Circles the viewer may read (never none when asked): put `inReadableCircles(column, circles)` in the condition. */
  circles: ReadableCircles;
  /** Follow: the viewer, whose followed users and joined circles the items come from. */
  followerId: number | null;
  /** Only items after this one in the tab's order (the kind's own condition: see `cursorCondition`). */
  cursor: FeedCursor | null;
  /** At most this many rows. */
  limit: number;
}

/** A kind's `feed` member: a feed kind without its name (the subject type is the name). */
export type FeedMember = Omit<FeedKind, "kind">;

export interface FeedKind {
  /** The kind's name in cards and cursors (`writing`, `book`, `chapter`): its subject type. */
  kind: string;
  /** The tabs it appears in (Hot: only kinds with a stored score). */
  tabs: readonly FeedTab[];
  /**
   * A parenthesised SELECT of `kind` (text), `id` (integer), `at` (timestamptz: published),
   * `score` (float8: the stored Hot score, 0 when it has none), the scope's newest (or, on Hot,
   * hottest) `limit` rows in order: one index range, or for Follow one per followed user and
   * joined circle (`followedKeys`).
   */
  candidates(scope: FeedScope): SQL;
  /** The cards of these ids (in any order; missing ids are skipped), texts in `locale`. */
  cards(db: Executor, ids: number[], locale: "zh-CN" | "en"): Promise<Map<number, FeedCard>>;
}

/** The kinds that appear in a tab, in registration order. */
export function feedKinds(tab: FeedTab): FeedKind[] {
  return kindsWith("feed")
    .filter((kind) => kind.feed.tabs.includes(tab))
    .map((kind) => ({ kind: kind.type, ...kind.feed }));
}
