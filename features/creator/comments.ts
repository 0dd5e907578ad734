import { sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { AppError } from "../../common/app-error.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { microsOf } from "../feeds/conditions.ts";
import { kindsWith, subjectKind } from "../subjects/registry.ts";
import type { SubjectType } from "../subjects/types.ts";

/**
 * Comments on a user's content for the creator's desk (`/creator/manage/comment`): others'
 * comments and replies, not deleted, on the user's subjects of every commentable kind (each
 * declares `authoredBy` in its subject registration), newest first. Written here, on the comments
 * table's `subject_type`/`subject_id`; the subjects' titles and pages come from their kinds.
 */
export interface CreatorComment {
  id: number;
  body: string;
  createdAt: Date;
  /** The top-level comment a reply belongs to (null for a top-level comment). */
  parentId: number | null;
  author: { id: number; username: string; nickname: string; avatar: string | null };
  subject: { type: string; id: number; title: string; path: string };
}

export interface CreatorCommentPage {
  items: CreatorComment[];
  nextCursor: string | null;
}

/** The user's subjects comments can hang on: a union of (type, id, title) over every commentable kind. */
function ownedSubjects(userId: number) {
  return sql.join(
    kindsWith("authoredBy")
      .filter((kind) => kind.commentable === true)
      .map((kind) => sql`select ${kind.type}::text as type, own.id, own.title from (${kind.authoredBy(userId)}) as own`),
    sql` union all `,
  );
}

/** Each subject's page, from its kind (the author reads their own content); one that no longer opens is left out. */
async function subjectPaths(db: Executor, viewer: Viewer, subjects: { type: SubjectType; id: number }[]): Promise<Map<string, string>> {
  const paths = new Map<string, string>();
  for (const subject of subjects) {
    const key = `${subject.type}:${subject.id}`;
    if (paths.has(key)) continue;
    try {
      paths.set(key, (await subjectKind(subject.type).load(db, viewer, subject.id)).path);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
  }
  return paths;
}

/** Cursor: `u<µs>_<comment id>` of the last comment shown. */
function parseCursor(cursor: string | null | undefined): { micros: string; id: number } | null {
  const match = cursor ? /^u(\d{1,18})_(\d{1,10})$/.exec(cursor) : null;
  return match ? { micros: match[1]!, id: Number(match[2]) } : null;
}

export async function listCommentsOnMyContent(
  db: Executor,
  viewer: Viewer,
  options: { cursor?: string | null; limit?: number } = {},
): Promise<CreatorCommentPage> {
  const limit = Math.min(Math.max(options.limit ?? 20, 1), 50);
  const cursor = parseCursor(options.cursor);
  const after = cursor
    ? sql`and (c.created_at, c.id) < (timestamptz 'epoch' + ${cursor.micros}::bigint * interval '1 microsecond', ${cursor.id}::integer)`
    : sql``;
  const result = await db.execute(sql`
    select c.id, c.body, c.created_at, c.parent_id, ${microsOf(sql`c.created_at`)} as micros,
      u.id as author_id, u.username, u.nickname, u.avatar,
      s.type as subject_type, s.id as subject_id, s.title as subject_title
    from comments c
    join (${ownedSubjects(viewer.id)}) as s on s.type = c.subject_type and s.id = c.subject_id
    join users u on u.id = c.author_id
    where c.deleted_at is null and c.author_id <> ${viewer.id} ${after}
    order by c.created_at desc, c.id desc
    limit ${limit + 1}`);
  const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const paths = await subjectPaths(
    db,
    viewer,
    page.map((row) => ({ type: row.subject_type as SubjectType, id: Number(row.subject_id) })),
  );
  return {
    items: page.flatMap((row) => {
      const type = String(row.subject_type);
      const id = Number(row.subject_id);
      const path = paths.get(`${type}:${id}`);
      if (path === undefined) return [];
      return [
        {
          id: Number(row.id),
          body: String(row.body),
          createdAt: new Date(row.created_at as string | Date),
          parentId: row.parent_id === null ? null : Number(row.parent_id),
          author: {
            id: Number(row.author_id),
            username: String(row.username),
            nickname: String(row.nickname),
            avatar: (row.avatar as string | null) ?? null,
          },
          subject: { type, id, title: String(row.subject_title), path },
        },
      ];
    }),
    nextCursor: more && last ? `u${String(last.micros)}_${Number(last.id)}` : null,
  };
}
