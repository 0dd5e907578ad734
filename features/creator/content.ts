import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import type { ServiceOptions } from "../../server/lib/transactions.ts";
import { countInstance } from "../../server/lib/single-instance.ts";
import { AppError } from "../../common/app-error.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { afterCursor, microsOf } from "../feeds/conditions.ts";
import { parseFeedCursor } from "../feeds/service.ts";
import type { FeedCursor } from "../feeds/registry.ts";
import { isSubjectType } from "../subjects/types.ts";
import { kindsWith, subjectKind } from "../subjects/registry.ts";

/**
 * The creator's desk lists a user's own content over every kind whose subject registration
 * declares `creatorDesk` (writings and books now, each in its own `features/<domain>/creator.ts`):
 * one union of per-kind index ranges on (author, time, id), newest first, with a keyset cursor.
 */
countInstance("creator/content");

/** A row of the manage-content list. */
export interface CreatorContentRow {
  /** The subject type (`writing`, `book`): with `id`, what delete and likes refer to. */
  type: string;
  /** The filterable kind: `article`, `serial`, `post`, `book`. */
  kind: string;
  id: number;
  circleId: number;
  title: string;
  /** `published` for writings; a book's state (`updating`, `completed`). */
  status: string;
  views: number;
  likes: number;
  comments: number;
  /** Published (writings) or created (books). */
  at: Date;
  /** Its reading page and its editor, without the /en prefix. */
  path: string;
  editPath: string;
}

export interface CreatorKindFilter {
  authorId: number;
  /** Only these kinds of this registration (never empty when asked). */
  kinds: string[];
  /** Lower-cased text the title contains (already escaped for LIKE), or null. */
  like: string | null;
  cursor: FeedCursor | null;
  limit: number;
}

/** A kind's `creatorDesk` member (its subject type is the rows' `type` and the cursor's tie-break between kinds). */
export interface CreatorDeskMember {
  /** The kinds the filter offers for it. */
  kinds: readonly string[];
  /**
   * A parenthesised SELECT of `type`, `kind`, `id`, `circle_id`, `title`, `status`, `views`,
   * `comments`, `at` (timestamptz): the author's newest `limit` rows of `kinds` past the cursor.
   */
  rows(filter: CreatorKindFilter): SQL;
  paths(row: { kind: string; id: number; circleId: number }): { path: string; editPath: string };
  /** Deletes one for good, with the kind's own rules (its author, or its circle's moderators). */
  remove(options: ServiceOptions, viewer: Viewer, id: number): Promise<unknown>;
}

const deskKinds = () => kindsWith("creatorDesk").map((kind) => ({ type: kind.type, ...kind.creatorDesk }));

function deskKind(type: string): CreatorDeskMember | undefined {
  return isSubjectType(type) ? subjectKind(type).creatorDesk : undefined;
}

/** Every kind the filter offers, in registration order. */
export function creatorKinds(): string[] {
  return deskKinds().flatMap((kind) => kind.kinds);
}

/** The condition "the title contains the filter's text" on one kind's title column (`b.name`). */
export function creatorTitleLike(column: string, filter: CreatorKindFilter): SQL {
  return filter.like === null ? sql`true` : sql`lower(${sql.raw(column)}) like ${filter.like} escape '\\'`;
}

/** The condition "after the cursor" for one kind's columns (see `afterCursor`). */
export function creatorAfterCursor(type: string, time: SQL, id: SQL, cursor: FeedCursor | null): SQL {
  return afterCursor(type, { time, score: sql`0`, id }, cursor, false) ?? sql`true`;
}

export interface CreatorContentPage {
  items: CreatorContentRow[];
  nextCursor: string | null;
}

/**
 * One page of the user's own content, newest first: `kind` filters (one of `creatorKinds()`),
 * `q` searches titles (case-insensitive, as typed), `cursor` continues after the last item.
 */
export async function listCreatorContent(
  db: Executor,
  viewer: Viewer,
  options: { kind?: string | null; q?: string | null; cursor?: string | null; limit?: number } = {},
): Promise<CreatorContentPage> {
  const limit = Math.min(Math.max(options.limit ?? 20, 1), 50);
  const q = options.q?.trim() ?? "";
  const like = q ? `%${q.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%` : null;
  const cursor = parseFeedCursor(options.cursor);
  const chosen = deskKinds()
    .map((kind) => ({ kind, kinds: options.kind ? kind.kinds.filter((name) => name === options.kind) : [...kind.kinds] }))
    .filter((entry) => entry.kinds.length > 0);
  if (chosen.length === 0) return { items: [], nextCursor: null };
  const union = sql.join(
    chosen.map(({ kind, kinds: names }) => kind.rows({ authorId: viewer.id, kinds: names, like, cursor, limit: limit + 1 })),
    sql` union all `,
  );
  const result = await db.execute(sql`
    select u.type, u.kind, u.id, u.circle_id, u.title, u.status, u.views, u.comments, u.at, ${microsOf(sql`u.at`)} as micros,
      coalesce((select sc.like_count from subject_counts sc where sc.subject_type = u.type and sc.subject_id = u.id), 0) as likes
    from (${union}) as u
    order by u.at desc, u.id desc, u.type desc
    limit ${limit + 1}`);
  const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map((row) => {
      const item = {
        type: String(row.type),
        kind: String(row.kind),
        id: Number(row.id),
        circleId: Number(row.circle_id),
        title: String(row.title),
        status: String(row.status),
        views: Number(row.views),
        likes: Number(row.likes),
        comments: Number(row.comments),
        at: new Date(row.at as string | Date),
      };
      return { ...item, ...deskKind(item.type)!.paths(item) };
    }),
    nextCursor: more && last ? `u${String(last.micros)}_${Number(last.id)}_${String(last.type)}` : null,
  };
}

/** Deletes one of the user's items from the manage page (the kind's own service and rules). Unknown kinds are `not_found`. */
export async function deleteCreatorContent(options: ServiceOptions, viewer: Viewer, type: string, id: number): Promise<void> {
  const kind = deskKind(type);
  if (!kind) throw new AppError("not_found");
  await kind.remove(options, viewer, id);
}
