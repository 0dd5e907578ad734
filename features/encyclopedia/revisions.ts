import { and, asc, count, desc, eq, lt, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { entryRevisions, users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { revisionSnapshot } from "./editing.ts";
import { changedFields, diffContent, type DiffBlock, type EntrySnapshot, type SnapshotField } from "./revision-text.ts";
import { loadReadableEntry } from "./service.ts";

/*
 * Reading an entry's history: the revision list (newest first, by pages), one revision as it
 * was, the diff between any two, and the contributors. Whoever may read the entry may read these.
 */

export const revisionsPageSize = 50;

export interface RevisionSummary {
  id: number;
  number: number;
  author: { id: number; username: string; nickname: string } | null;
  createdAt: string;
  summary: string;
  size: number;
  sizeDelta: number;
  language: "zh-CN" | "en";
  revertOf: number | null;
  current: boolean;
}

const revisionColumns = {
  id: entryRevisions.id,
  number: entryRevisions.number,
  createdAt: entryRevisions.createdAt,
  summary: entryRevisions.summary,
  size: entryRevisions.size,
  sizeDelta: entryRevisions.sizeDelta,
  language: entryRevisions.language,
  revertOf: entryRevisions.revertOf,
  authorId: users.id,
  authorUsername: users.username,
  authorNickname: users.nickname,
};

type RevisionRow = {
  id: number;
  number: number;
  createdAt: Date;
  summary: string;
  size: number;
  sizeDelta: number;
  language: "zh-CN" | "en";
  revertOf: number | null;
  authorId: number | null;
  authorUsername: string | null;
  authorNickname: string | null;
};

function summaryOf(row: RevisionRow, currentId: number | null): RevisionSummary {
  return {
    id: row.id,
    number: row.number,
    author: row.authorId === null ? null : { id: row.authorId, username: row.authorUsername!, nickname: row.authorNickname! },
    createdAt: row.createdAt.toISOString(),
    summary: row.summary,
    size: row.size,
    sizeDelta: row.sizeDelta,
    language: row.language,
    revertOf: row.revertOf,
    current: row.id === currentId,
  };
}

/** A page of the entry's revisions, newest first; `cursor` is the last number seen. */
export async function listRevisions(
  db: Executor,
  viewer: Viewer | null,
  entryId: number,
  cursor: number | null,
): Promise<{ entry: { id: number; circleId: number; name: string }; revisions: RevisionSummary[]; nextCursor: number | null }> {
  const { row } = await loadReadableEntry(db, viewer, entryId);
  const rows = await db
    .select(revisionColumns)
    .from(entryRevisions)
    .leftJoin(users, eq(users.id, entryRevisions.authorId))
    .where(and(eq(entryRevisions.entryId, row.id), cursor === null ? undefined : lt(entryRevisions.number, cursor)))
    .orderBy(desc(entryRevisions.number))
    .limit(revisionsPageSize + 1);
  const page = rows.slice(0, revisionsPageSize);
  return {
    entry: { id: row.id, circleId: row.circleId, name: row.name },
    revisions: page.map((item) => summaryOf(item, row.revisionId)),
    nextCursor: rows.length > revisionsPageSize ? page.at(-1)!.number : null,
  };
}

async function revisionRow(db: Executor, entryId: number, revisionId: number): Promise<RevisionRow> {
  const [row] = await db
    .select(revisionColumns)
    .from(entryRevisions)
    .leftJoin(users, eq(users.id, entryRevisions.authorId))
    .where(and(eq(entryRevisions.id, revisionId), eq(entryRevisions.entryId, entryId)))
    .limit(1);
  if (!row) throw new AppError("not_found");
  return row;
}

/** One revision of the entry as it was saved. */
export async function getRevision(
  db: Executor,
  viewer: Viewer | null,
  entryId: number,
  revisionId: number,
): Promise<{ revision: RevisionSummary; snapshot: EntrySnapshot }> {
  const { row } = await loadReadableEntry(db, viewer, entryId);
  const [summary, { snapshot }] = await Promise.all([revisionRow(db, row.id, revisionId), revisionSnapshot(db, row.id, revisionId)]);
  return { revision: summaryOf(summary, row.revisionId), snapshot };
}

export interface FieldChange {
  field: Exclude<SnapshotField, "content">;
  from: unknown;
  to: unknown;
}

export interface RevisionDiff {
  from: RevisionSummary;
  to: RevisionSummary;
  fields: FieldChange[];
  blocks: DiffBlock[];
}

/** The difference between any two revisions of the entry (word level in English, character level in Chinese). */
export async function diffRevisions(
  db: Executor,
  viewer: Viewer | null,
  entryId: number,
  fromId: number,
  toId: number,
): Promise<RevisionDiff> {
  const { row } = await loadReadableEntry(db, viewer, entryId);
  const [fromRow, toRow, from, to] = await Promise.all([
    revisionRow(db, row.id, fromId),
    revisionRow(db, row.id, toId),
    revisionSnapshot(db, row.id, fromId),
    revisionSnapshot(db, row.id, toId),
  ]);
  const fields = changedFields(from.snapshot, to.snapshot)
    .filter((field): field is FieldChange["field"] => field !== "content")
    .map((field) => ({ field, from: from.snapshot[field], to: to.snapshot[field] }));
  return {
    from: summaryOf(fromRow, row.revisionId),
    to: summaryOf(toRow, row.revisionId),
    fields,
    blocks: diffContent(from.snapshot.content, to.snapshot.content, row.language),
  };
}

/** Everyone with a revision of the entry (most edits first), and when its first revision was saved. */
export async function entryContributors(
  db: Executor,
  entryId: number,
): Promise<{ contributors: { id: number; username: string; nickname: string; edits: number }[]; createdAt: string | null }> {
  const [rows, [first]] = await Promise.all([
    db
      .select({ id: users.id, username: users.username, nickname: users.nickname, edits: count() })
      .from(entryRevisions)
      .innerJoin(users, eq(users.id, entryRevisions.authorId))
      .where(eq(entryRevisions.entryId, entryId))
      .groupBy(users.id, users.username, users.nickname)
      .orderBy(desc(count()), asc(sql`min(${entryRevisions.number})`))
      .limit(50),
    db
      .select({ createdAt: entryRevisions.createdAt })
      .from(entryRevisions)
      .where(eq(entryRevisions.entryId, entryId))
      .orderBy(asc(entryRevisions.number))
      .limit(1),
  ]);
  return { contributors: rows.map((row) => ({ ...row, edits: Number(row.edits) })), createdAt: first?.createdAt.toISOString() ?? null };
}

/**
 * How another language version changed since this one was last saved: the number of its
 * revisions (its first aside) saved after `since`, and the two revisions to diff (the one current then, or its
 * first, and its current one). Null when it has not changed.
 */
export async function versionChangedSince(
  db: Executor,
  other: { id: number; revisionId: number | null },
  since: Date,
): Promise<{ edits: number; from: number; to: number } | null> {
  if (other.revisionId === null) return null;
  const [changed] = await db
    .select({ edits: count() })
    .from(entryRevisions)
    // Its first revision is no change: a version written after this one was written from it.
    .where(
      and(
        eq(entryRevisions.entryId, other.id),
        sql`${entryRevisions.number} > 1`,
        sql`${entryRevisions.createdAt} > ${since.toISOString()}`,
      ),
    );
  const edits = changed?.edits ?? 0;
  if (edits === 0) return null;
  const [then] = await db
    .select({ id: entryRevisions.id })
    .from(entryRevisions)
    .where(and(eq(entryRevisions.entryId, other.id), sql`${entryRevisions.createdAt} <= ${since.toISOString()}`))
    .orderBy(desc(entryRevisions.number))
    .limit(1);
  const [first] = then
    ? [then]
    : await db
        .select({ id: entryRevisions.id })
        .from(entryRevisions)
        .where(eq(entryRevisions.entryId, other.id))
        .orderBy(asc(entryRevisions.number))
        .limit(1);
  return { edits, from: first?.id ?? other.revisionId, to: other.revisionId };
}
