import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Database, Executor } from "../../server/db/client.ts";
import { AppError } from "../../common/app-error.ts";
import { idSchema } from "../../common/id.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { setEntryProtection } from "../encyclopedia/editing.ts";
import { openCaseForSubject, resolveCase } from "../reports/service.ts";
import { decisionNoteMax } from "../reports/schema.ts";
import { loadSubject } from "../subjects/registry.ts";
import { recordAudit, requireReason } from "./audit.ts";
import type { Staff } from "./staff.ts";
import { contentKinds, type ContentKind } from "./constants.ts";

/*
 * `/admin/content`: any subject found by kind, circle, author or text, hidden and restored through
 * the reports' moderation path (a case decided with the reason as its note, which the author is
 * told), and entries protected or unprotected, every write audited with its reason.
 */

export const contentSearchSchema = z.object({
  kind: z.enum(contentKinds).optional(),
  circle: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  author: z.string().trim().max(64).optional(),
  q: z.string().trim().max(100).optional(),
  cursor: z.coerce.number().int().min(0).max(100_000).optional(),
});
export type ContentSearch = z.infer<typeof contentSearchSchema>;

export interface ContentRow {
  type: ContentKind;
  id: number;
  circleId: number | null;
  author: { id: number; username: string } | null;
  title: string;
  hidden: boolean;
  protected: boolean | null;
  createdAt: Date;
  /** Its page (without the /en prefix), when staff can open it. */
  path: string | null;
}

const pageSize = 50;

/** One SELECT per kind, all with the same columns: type, id, circle_id, author_id, title, body, hidden_at, protected, created_at. */
function kindSelect(kind: ContentKind): SQL {
  switch (kind) {
    case "writing":
      return sql`select 'writing' as type, w.id, w.circle_id, w.author_id, w.title, w.markdown as body, w.hidden_at, null::boolean as protected, w.published_at as created_at from writings w`;
    case "book":
      return sql`select 'book', b.id, b.circle_id, b.author_id, b.name, '', b.hidden_at, null::boolean, b.created_at from books b`;
    case "chapter":
      return sql`select 'chapter', c.id, b.circle_id, b.author_id, c.title, c.markdown, c.hidden_at, null::boolean, c.created_at from book_chapters c join books b on b.id = c.book_id`;
    case "question":
      return sql`select 'question', q.id, q.circle_id, q.author_id, q.title, q.markdown, q.hidden_at, null::boolean, q.published_at from questions q`;
    case "answer":
      return sql`select 'answer', a.id, q.circle_id, a.author_id, q.title, a.markdown, a.hidden_at, null::boolean, a.published_at from answers a join questions q on q.id = a.question_id`;
    case "entry":
      return sql`select 'entry', e.id, e.circle_id, e.creator_id, e.name, '', e.hidden_at, e.protected, e.created_at from encyclopedia_entries e`;
    case "comment":
      return sql`select 'comment', m.id, null::integer, m.author_id, left(m.body, 80), m.body, m.hidden_at, null::boolean, m.created_at from comments m where m.deleted_at is null`;
  }
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Newest first, 50 a page (`cursor`: how many were shown before), whether hidden or not. */
export async function searchContent(
  db: Database,
  viewer: Viewer,
  query: ContentSearch,
): Promise<{ rows: ContentRow[]; nextCursor: number | null }> {
  const kinds = query.kind ? [query.kind] : contentKinds;
  const union = sql.join(
    kinds.map((kind) => kindSelect(kind)),
    sql` union all `,
  );
  const conditions: SQL[] = [sql`true`];
  if (query.circle) conditions.push(sql`s.circle_id = ${query.circle}`);
  if (query.author) conditions.push(sql`lower(u.username) = ${query.author.toLowerCase()}`);
  if (query.q) conditions.push(sql`(s.title ilike ${likePattern(query.q)} or s.body ilike ${likePattern(query.q)})`);
  const offset = query.cursor ?? 0;
  type Found = {
    type: ContentKind;
    id: number;
    circle_id: number | null;
    author_id: number | null;
    username: string | null;
    title: string;
    hidden_at: string | Date | null;
    protected: boolean | null;
    created_at: string | Date;
  };
  const result =
    (await db.execute(sql`select s.type, s.id, s.circle_id, s.author_id, u.username, s.title, s.hidden_at, s.protected, s.created_at
    from (${union}) as s (type, id, circle_id, author_id, title, body, hidden_at, protected, created_at)
    left join users u on u.id = s.author_id
    where ${sql.join(conditions, sql` and `)}
    order by s.created_at desc, s.type, s.id desc
    limit ${pageSize + 1} offset ${offset}`)) as unknown as { rows: Found[] };
  const found = result.rows.slice(0, pageSize);
  const rows: ContentRow[] = [];
  for (const row of found)
    rows.push({
      type: row.type,
      id: Number(row.id),
      circleId: row.circle_id === null ? null : Number(row.circle_id),
      author: row.author_id === null || row.username === null ? null : { id: Number(row.author_id), username: row.username },
      title: row.title,
      hidden: row.hidden_at !== null,
      protected: row.protected,
      createdAt: new Date(row.created_at),
      path: await subjectPath(db, viewer, row.type, Number(row.id)),
    });
  return { rows, nextCursor: result.rows.length > pageSize ? offset + pageSize : null };
}

async function subjectPath(db: Executor, viewer: Viewer, type: ContentKind, id: number): Promise<string | null> {
  try {
    return (await loadSubject(db, viewer, type, id)).path;
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

export const contentParams = z.object({ type: z.enum(contentKinds), id: idSchema });

/**
 * Hides or restores a subject as the reports do: its open case (opened now when none) is decided
 * with the reason as the note, which the author (and any reporters) are told; audited in the
 * same transaction.
 */
export async function moderateContent(
  options: ServiceOptions,
  viewer: Viewer,
  staff: Staff,
  address: string,
  target: { type: ContentKind; id: number },
  input: { action: "hide" | "restore"; reason: string | undefined },
): Promise<{ hidden: boolean }> {
  const why = requireReason(input.reason);
  return inTransaction(options, async (tx) => {
    const caseId = await openCaseForSubject(tx, viewer, target.type, target.id);
    const decided = await resolveCase({ db: tx.db, tx }, viewer, caseId, { action: input.action, note: why.slice(0, decisionNoteMax) });
    await recordAudit(
      tx.db,
      { staff, address },
      {
        action: `content.${input.action}`,
        target: `${target.type}:${target.id}`,
        after: { case: caseId, hidden: decided.hidden },
        reason: why,
      },
    );
    return { hidden: decided.hidden };
  });
}

/** Protects or unprotects an entry (all its language versions), audited with the reason. */
export async function protectContent(
  options: ServiceOptions,
  viewer: Viewer,
  staff: Staff,
  address: string,
  id: number,
  input: { protected: boolean; reason: string | undefined },
): Promise<{ protected: boolean }> {
  const why = requireReason(input.reason);
  return inTransaction(options, async (tx) => {
    const result = await setEntryProtection({ db: tx.db, tx }, viewer, id, input.protected, true);
    await recordAudit(
      tx.db,
      { staff, address },
      { action: input.protected ? "entry.protect" : "entry.unprotect", target: `entry:${id}`, after: result, reason: why },
    );
    return result;
  });
}
