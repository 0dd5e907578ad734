import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { taggedMemory, type TaggedMemory } from "../../server/lib/tagged-memory.ts";
import { commentPageSize, replyPageSize, replyPreviewSize, type CommentAuthor, type CommentSort } from "./schema.ts";
import { userTags } from "../../server/lib/cache-tags.ts";

/** A user named in a comment: the replied user, or one `@username` mentions. */
export interface NamedUser {
  id: number;
  username: string;
  nickname: string;
}

/** What every comment row carries besides its text: likes (and dislikes, for its author), the edit time, mentions. */
interface CommentExtras {
  like_count: number;
  dislike_count: number;
  edited_at: string | null;
  mentions: NamedUser[];
}

/** A reply as read from the database (never deleted: deleted replies are left out). */
export interface ReplyRow extends CommentExtras {
  id: number;
  body: string;
  created_at: string;
  author: CommentAuthor;
  reply_to: NamedUser | null;
}

/** A top-level comment as read: a deleted one (still shown because it has replies) has no body or author. */
export interface ThreadRow extends CommentExtras {
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

/** The users comment `alias` mentions, as a JSON array (by username). */
const mentionsJson = (alias: string) =>
  sql.raw(`coalesce((select json_agg(json_build_object('id', mu.id, 'username', mu.username, 'nickname', mu.nickname) order by mu.username)
    from comment_mentions cm join users mu on mu.id = cm.user_id where cm.comment_id = ${alias}.id), '[]'::json)`);

/** Like and dislike counts of comment `alias` (its `subject_counts` row, joined as `<alias>sc`). */
const countsJoin = (alias: string) =>
  sql.raw(`left join subject_counts ${alias}sc on ${alias}sc.subject_type = 'comment' and ${alias}sc.subject_id = ${alias}.id`);
const extrasColumns = (alias: string) =>
  sql.raw(`coalesce(${alias}sc.like_count, 0) as like_count, coalesce(${alias}sc.dislike_count, 0) as dislike_count, ${alias}.edited_at, `);

/**
 * Live replies of the comment `parent` names, oldest first, as a JSON array (`extra` narrows them,
 * a cursor say): the first replies under each top-level comment and the replies pages alike.
 */
const repliesJson = (parent: SQL, limit: number, extra: SQL = sql``) => sql`coalesce((
  select json_agg(x order by x.created_at, x.id) from (
    select r.id, r.body, r.created_at, ${authorJson("ra")} as author, ${extrasColumns("r")} ${mentionsJson("r")} as mentions,
      case when rt.id is null then null else json_build_object('id', rt.id, 'username', rt.username, 'nickname', rt.nickname) end as reply_to
    from comments r
    join users ra on ra.id = r.author_id
    left join users rt on rt.id = r.reply_to_user_id
    ${countsJoin("r")}
    where r.parent_id = ${parent} and r.deleted_at is null and r.hidden_at is null ${extra}
    order by r.created_at, r.id
    limit ${limit}
  ) x), '[]'::json)`;

/** Replies of top-level comment `c` (a correlated subquery), oldest first. */
const repliesSql = (limit: number) => repliesJson(sql`c.id`, limit);

/** How each sort orders top-level comments, and how a cursor (the last comment shown) continues it. */
function ordering(sort: CommentSort, cursor: number | null): { order: SQL; outer: SQL; after: SQL } {
  const cursorRow = (columns: string) =>
    sql.raw(
      `(select ${columns} from comments p left join subject_counts psc on psc.subject_type = 'comment' and psc.subject_id = p.id where p.id = `,
    );
  switch (sort) {
    case "oldest":
      return {
        order: sql`c.created_at, c.id`,
        outer: sql`t.created_at, t.id`,
        after: cursor === null ? sql`` : sql`and (c.created_at, c.id) > ${cursorRow("p.created_at, p.id")}${cursor}::integer)`,
      };
    case "liked":
      return {
        order: sql`coalesce(csc.like_count, 0) desc, c.created_at desc, c.id desc`,
        outer: sql`t.like_count desc, t.created_at desc, t.id desc`,
        after:
          cursor === null
            ? sql``
            : sql`and (coalesce(csc.like_count, 0), c.created_at, c.id) < ${cursorRow("coalesce(psc.like_count, 0), p.created_at, p.id")}${cursor}::integer)`,
      };
    case "newest":
      return {
        order: sql`c.created_at desc, c.id desc`,
        outer: sql`t.created_at desc, t.id desc`,
        after: cursor === null ? sql`` : sql`and (c.created_at, c.id) < ${cursorRow("p.created_at, p.id")}${cursor}::integer)`,
      };
  }
}

/**
 * One page of a subject's top-level comments in the chosen order (newest first by default,
 * Zhihu's time order; oldest first; most liked first, newest among equals), each with its first
 * replies (oldest first), reply count, like counts and mentions, and the subject's total: one
 * statement, so the reading page pays one query for its comments. A deleted comment is listed
 * only while it has replies; one hidden by moderation reads like a deleted one. `cursor` is the id of the last comment of the previous page (in the
 * most-liked order a like moving between two page loads may repeat or skip a comment, as on every
 * site that pages by likes).
 */
export async function threadPage(
  db: Executor,
  type: string,
  subjectId: number,
  cursor: number | null,
  sort: CommentSort = "newest",
  limit = commentPageSize,
): Promise<ThreadPageRow> {
  const { order, outer, after } = ordering(sort, cursor);
  const result = (await db.execute(sql`
    select json_build_object(
      'total', (select count(*) from comments a where a.subject_type = ${type} and a.subject_id = ${subjectId} and a.deleted_at is null and a.hidden_at is null),
      'items', coalesce((
        select json_agg(t order by ${outer}) from (
          select c.id,
            case when c.deleted_at is null and c.hidden_at is null then c.body else '' end as body,
            c.created_at,
            (c.deleted_at is not null or c.hidden_at is not null) as deleted,
            case when c.deleted_at is null and c.hidden_at is null then ${authorJson("u")} end as author,
            ${extrasColumns("c")}
            case when c.deleted_at is null and c.hidden_at is null then ${mentionsJson("c")} else '[]'::json end as mentions,
            (select count(*) from comments n where n.parent_id = c.id and n.deleted_at is null and n.hidden_at is null) as reply_count,
            ${repliesSql(replyPreviewSize)} as replies
          from comments c
          join users u on u.id = c.author_id
          ${countsJoin("c")}
          where c.subject_type = ${type} and c.subject_id = ${subjectId} and c.parent_id is null
            and ((c.deleted_at is null and c.hidden_at is null) or exists (select 1 from comments e where e.parent_id = c.id and e.deleted_at is null and e.hidden_at is null))
            ${after}
          order by ${order}
          limit ${limit + 1}
        ) t), '[]'::json)
    ) as page`)) as unknown as RowsOf<ThreadPageRow>;
  return result.rows[0]!.page;
}

/**
 * The first page of a subject's comments in each order, remembered under the tags of the pages
 * that show it (the subject's comments tag, `commentsTag(type, id)`, which every comment write and
 * every like of one of its comments invalidates, and each named person's `user:<id>`, for names
 * and avatars), like the reading page's own content: a remembered reading page still needs no
 * query. One memory per kind and order, made when first asked (a new commentable kind needs none).
 */
const firstPages = new Map<string, TaggedMemory<ThreadPageRow>>();

function firstPagesOf(type: string, sort: CommentSort): TaggedMemory<ThreadPageRow> {
  const name = `comments/first-page/${type}/${sort}`;
  let memory = firstPages.get(name);
  if (!memory) {
    memory = taggedMemory<ThreadPageRow>(name, { ttlMs: 60_000, maxEntries: 2_000 });
    firstPages.set(name, memory);
  }
  return memory;
}

export async function firstThreadPage(
  db: Executor,
  type: string,
  subjectId: number,
  commentsTags: string[],
  sort: CommentSort = "newest",
): Promise<ThreadPageRow> {
  return firstPagesOf(type, sort).read(db, subjectId, async () => {
    const page = await threadPage(db, type, subjectId, null, sort);
    return { value: page, tags: [...commentsTags, ...commenterTags(page)] };
  });
}

/** `user:<id>` of everyone named on a page of comments (authors, replied and @-mentioned users). */
export function commenterTags(page: ThreadPageRow): string[] {
  const ids = new Set<number>();
  for (const thread of page.items) {
    if (thread.author) ids.add(thread.author.id);
    for (const mention of thread.mentions) ids.add(mention.id);
    for (const reply of thread.replies) {
      ids.add(reply.author.id);
      if (reply.reply_to) ids.add(reply.reply_to.id);
      for (const mention of reply.mentions) ids.add(mention.id);
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

/** A comment or reply with its subject and thread, as lists outside a thread show it. */
export interface PlacedCommentRow extends ReplyRow {
  subject_type: string;
  subject_id: number;
  parent_id: number | null;
}

/** Live comments and replies matching `where` (on `r`), in `order`, with what presenting needs. */
async function placedComments(db: Executor, where: SQL, order: (alias: "r" | "x") => SQL, limit: number): Promise<PlacedCommentRow[]> {
  const result = (await db.execute(sql`
    select coalesce((select json_agg(x order by ${order("x")}) from (
      select r.id, r.body, r.created_at, r.subject_type, r.subject_id, r.parent_id, ${authorJson("ra")} as author,
        ${extrasColumns("r")} ${mentionsJson("r")} as mentions,
        case when rt.id is null then null else json_build_object('id', rt.id, 'username', rt.username, 'nickname', rt.nickname) end as reply_to
      from comments r
      join users ra on ra.id = r.author_id
      left join users rt on rt.id = r.reply_to_user_id
      ${countsJoin("r")}
      where r.deleted_at is null and r.hidden_at is null and ${where}
      order by ${order("r")}
      limit ${limit}
    ) x), '[]'::json) as page`)) as unknown as RowsOf<PlacedCommentRow[]>;
  return result.rows[0]!.page;
}

/** One live comment or reply as lists show it (after posting or editing it), or null. */
export async function placedComment(db: Executor, id: number): Promise<PlacedCommentRow | null> {
  const [row] = await placedComments(db, sql`r.id = ${id}`, (alias) => sql.raw(`${alias}.id`), 1);
  return row ?? null;
}

/**
 * Comments and replies on the content of one user, newest first, after comment `cursor`: every
 * subject they are the author of (found by `subject_counts.author_id`, which the comment counter
 * writes for every commented subject of any kind), their own comments left out unless asked.
 */
export async function commentsOnContentOf(
  db: Executor,
  userId: number,
  cursor: number | null,
  limit: number,
  includeOwn: boolean,
): Promise<PlacedCommentRow[]> {
  const own = includeOwn ? sql`` : sql`and r.author_id <> ${userId}`;
  const after =
    cursor === null ? sql`` : sql`and (r.created_at, r.id) < (select p.created_at, p.id from comments p where p.id = ${cursor}::integer)`;
  return placedComments(
    db,
    sql`exists (select 1 from subject_counts s where s.subject_type = r.subject_type and s.subject_id = r.subject_id and s.author_id = ${userId}) ${own} ${after}`,
    (alias) => sql.raw(`${alias}.created_at desc, ${alias}.id desc`),
    limit,
  );
}
