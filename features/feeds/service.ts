import { sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { noneReadable, readableCircles } from "../circles/access.server.ts";
import { assertRegistrationsComplete } from "../subjects/registry.ts";
import { feedKinds, type FeedCursor } from "./registry.ts";
import type { FeedCard, FeedPage, FeedTab } from "./types.ts";

/**
 * Cursors: the last card's sort key and kind, `u<published µs>_<id>_<kind>` in time order,
 * `h<score>_<id>_<kind>` on Hot. Writings-only links made before (`u<µs>_<id>`, `t<ms>_<id>`,
 * `h<score>_<id>`) still work: their kind is taken as the last in order, so nothing repeats.
 */
export function parseFeedCursor(cursor: string | null | undefined): FeedCursor | null {
  if (!cursor) return null;
  const kindOf = (value: string | undefined) => value ?? "";
  const micros = /^u(\d{1,18})_(\d{1,10})(?:_([a-z]{1,20}))?$/.exec(cursor);
  if (micros) return { time: micros[1]!, id: Number(micros[2]), kind: kindOf(micros[3]) };
  const millis = /^t(\d{1,15})_(\d{1,10})$/.exec(cursor);
  if (millis) return { time: `${millis[1]}000`, id: Number(millis[2]), kind: "" };
  const hot = /^h(\d+(?:\.\d+)?(?:e-?\d{1,3})?)_(\d{1,10})(?:_([a-z]{1,20}))?$/.exec(cursor);
  if (hot && Number.isFinite(Number(hot[1]))) return { score: Number(hot[1]), id: Number(hot[2]), kind: kindOf(hot[3]) };
  return null;
}

export interface FeedOptions {
  tab?: FeedTab;
  cursor?: string | null;
  limit?: number;
  /** The interface language: items with a version in it show that version. */
  locale?: "zh-CN" | "en";
}

/**
 * One page of a home feed over every registered feed kind: Latest (articles, serialized articles,
 * books and chapters), All (every kind), Hot (kinds with a stored score, by it), Follow (every
 * kind, by followed users and in joined circles; empty for visitors); only circles the viewer may
 * read. Each kind gives its own `limit + 1` newest (or hottest) rows past the cursor, one index
 * range each (Follow: one per followed user and joined circle); the page is the first `limit` of
 * their union, then each kind shows its cards in one query.
 */
export async function listFeed(db: Executor, viewer: Viewer | null, options: FeedOptions = {}): Promise<FeedPage> {
  assertRegistrationsComplete();
  const tab = options.tab ?? "latest";
  const limit = Math.min(Math.max(options.limit ?? 20, 1), 50);
  if (tab === "follow" && !viewer) return { cards: [], nextCursor: null };
  const circles = await readableCircles(db, viewer);
  const kinds = feedKinds(tab);
  if (noneReadable(circles) || kinds.length === 0) return { cards: [], nextCursor: null };
  const hot = tab === "hot";
  const scope = {
    tab,
    circles,
    followerId: tab === "follow" ? viewer!.id : null,
    cursor: parseFeedCursor(options.cursor),
    limit: limit + 1,
  };
  const union = sql.join(
    kinds.map((kind) => kind.candidates(scope)),
    sql` union all `,
  );
  const order = hot ? sql`score desc, id desc, kind desc` : sql`at desc, id desc, kind desc`;
  const result = await db.execute<{ kind: string; id: number; micros: string; score: number }>(sql`
    select kind, id, (extract(epoch from at) * 1000000)::bigint::text as micros, score::float8 as score
    from (${union}) as candidates
    order by ${order}
    limit ${limit + 1}`);
  const rows = (result as unknown as { rows: { kind: string; id: number; micros: string; score: number }[] }).rows.map((row) => ({
    ...row,
    id: Number(row.id),
    score: Number(row.score),
  }));
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor = !more || !last ? null : hot ? `h${last.score}_${last.id}_${last.kind}` : `u${last.micros}_${last.id}_${last.kind}`;
  const byKind = new Map<string, number[]>();
  for (const row of page) byKind.set(row.kind, [...(byKind.get(row.kind) ?? []), row.id]);
  const cards = new Map<string, FeedCard>();
  await Promise.all(
    kinds
      .filter((kind) => byKind.has(kind.kind))
      .map(async (kind) => {
        for (const [id, card] of await kind.cards(db, byKind.get(kind.kind)!, options.locale ?? "zh-CN"))
          cards.set(`${kind.kind}-${id}`, card);
      }),
  );
  return { cards: page.flatMap((row) => cards.get(`${row.kind}-${row.id}`) ?? []), nextCursor };
}
