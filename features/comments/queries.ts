import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { taggedMemory, type TaggedMemory } from "../../server/lib/tagged-memory.ts";
import { commentPageSize, replyPageSize, replyPreviewSize, type CommentAuthor } from "./schema.ts";
import type { CommentSubjectType } from "./subjects.ts";
import { userTags } from "../../server/lib/cache-tags.ts";

/** A reply as read from the database (never deleted: deleted replies are left out). */
export interface ReplyRow {
  id: number;
  body: string;
  created_at: string;
  author: CommentAuthor;
  reply_to: { id: number; username: string; nickname: string } | null;
}

/** A top-level comment as read: a deleted one (still shown because it has replies) has no body or author. */
export interface ThreadRow {
  id: number;
  body: string;
  created_at: string;
  deleted: boolean;
  author: CommentAuthor | null;
  reply_count: number;
  replies: ReplyRow[];
}

export interface ThreadPageRow {
  total: number;
  /** Up to `limit + 1` threads: one more tells that there is a next page. */
  items: ThreadRow[];
}

/** Both drivers answer `execute` with `{ rows }`; the one column is JSON, which both parse. */
type RowsOf<Page> = { rows: { page: Page }[] };

const authorJson = (alias: string) =>
  sql.raw(`json_build_object('id', ${alias}.id, 'username', ${alias}.username, 'nickname', ${alias}.nickname, 'avatar', ${alias}.avatar)`);

/**
 * Live replies of the comment `parent` names, oldest first, as a JSON array (`extra` narrows them,
 * a cursor say): the first replies under each top-level comment and the replies pages alike.
 */
const repliesJson = (parent: SQL, limit: number, extra: SQL = sql``) => sql`coalesce((
  select json_agg(x order by x.created_at, x.id) from (
    select r.id, r.body, r.created_at, ${authorJson("ra")} as author,
      case when rt.id is null then null else json_build_object('id', rt.id, 'username', rt.username, 'nickname', rt.nickname) end as reply_to
    from comments r
    join users ra on ra.id = r.author_id
    left join users rt on rt.id = r.reply_to_user_id
    where r.parent_id = ${parent} and r.deleted_at is null and r.hidden_at is null ${extra}
    order by r.created_at, r.id
    limit ${limit}
  ) x), '[]'::json)`;

/** Replies of top-level comment `c` (a correlated subquery), oldest first. */
const repliesSql = (limit: number) => repliesJson(sql`c.id`, limit);

/**
 * One page of a subject's top-level comments, newest first (Zhihu's time order), each with its
 * first replies (oldest first) and reply count, and the subject's total: one statement, so the
 * reading page pays one query for its comments. A deleted comment is listed only while it has
 * replies; one hidden by moderation reads like a deleted one. `cursor` is the id of the last comment of the previous page.
 */
export async function threadPage(
  db: Executor,
  type: CommentSubjectType,
  subjectId: number,
  cursor: number | null,
  limit = commentPageSize,
): Promise<ThreadPageRow> {
  const result = (await db.execute(sql`
    select json_build_object(
      'total', (select count(*) from comments a where a.subject_type = ${type} and a.subject_id = ${subjectId} and a.deleted_at is null and a.hidden_at is null),
      'items', coalesce((
        select json_agg(t order by t.created_at desc, t.id desc) from (
          select c.id,
            case when c.deleted_at is null and c.hidden_at is null then c.body else '' end as body,
            c.created_at,
            (c.deleted_at is not null or c.hidden_at is not null) as deleted,
            case when c.deleted_at is null and c.hidden_at is null then ${authorJson("u")} end as author,
            (select count(*) from comments n where n.parent_id = c.id and n.deleted_at is null and n.hidden_at is null) as reply_count,
            ${repliesSql(replyPreviewSize)} as replies
          from comments c
          join users u on u.id = c.author_id
          where c.subject_type = ${type} and c.subject_id = ${subjectId} and c.parent_id is null
            and ((c.deleted_at is null and c.hidden_at is null) or exists (select 1 from comments e where e.parent_id = c.id and e.deleted_at is null and e.hidden_at is null))
            and (${cursor}::integer is null or (c.created_at, c.id) < (select p.created_at, p.id from comments p where p.id = ${cursor}::integer))
          order by c.created_at desc, c.id desc
          limit ${limit + 1}
        ) t), '[]'::json)
    ) as page`)) as unknown as RowsOf<ThreadPageRow>;
  return result.rows[0]!.page;
}

/**
 * The first page of a subject's comments, remembered under the tags of the pages that show it
 * (the subject's comments tag, `commentsTag(type, id)`, which every comment write invalidates, and each commenter's
 * `user:<id>`, for names and avatars), like the reading page's own content: a remembered reading
 * page still needs no query.
 */
const firstPages: Record<CommentSubjectType, TaggedMemory<ThreadPageRow>> = {
  writing: taggedMemory<ThreadPageRow>("comments/first-page/writing", { ttlMs: 60_000, maxEntries: 2_000 }),
};

export async function firstThreadPage(
  db: Executor,
  type: CommentSubjectType,
  subjectId: number,
  commentsTags: string[],
): Promise<ThreadPageRow> {
  return firstPages[type].read(db, subjectId, async () => {
    const page = await threadPage(db, type, subjectId, null);
    return { value: page, tags: [...commentsTags, ...commenterTags(page)] };
  });
}

/** `user:<id>` of everyone named on a page of comments (authors and @-mentioned users). */
export function commenterTags(page: ThreadPageRow): string[] {
  const ids = new Set<number>();
  for (const thread of page.items) {
    if (thread.author) ids.add(thread.author.id);
    for (const reply of thread.replies) {
      ids.add(reply.author.id);
      if (reply.reply_to) ids.add(reply.reply_to.id);
    }
  }
  return userTags(ids);
}

/** One page of a top-level comment's replies, oldest first, after reply `cursor`. */
export async function replyPage(
  db: Executor,
  parentId: number,
  cursor: number | null,
  limit = replyPageSize,
): Promise<{ total: number; items: ReplyRow[] }> {
  const result = (await db.execute(sql`
    select json_build_object(
      'total', (select count(*) from comments n where n.parent_id = ${parentId} and n.deleted_at is null and n.hidden_at is null),
      'items', ${repliesJson(sql`${parentId}`, limit + 1, sql`and (${cursor}::integer is null or (r.created_at, r.id) > (select p.created_at, p.id from comments p where p.id = ${cursor}::integer))`)}
    ) as page`)) as unknown as RowsOf<{ total: number; items: ReplyRow[] }>;
  return result.rows[0]!.page;
}
