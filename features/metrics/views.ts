import { sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { isbot } from "isbot";
import { shanghaiDay } from "../../common/locale.ts";
import type { ServiceOptions } from "../../server/lib/transactions.ts";
import type { Executor } from "../../server/db/client.ts";
import { isSubjectType, type SubjectType } from "../subjects/types.ts";
import { kindsWith, subjectKind } from "../subjects/registry.ts";

/**
 * Views and reads of every kind (docs/features/metrics.md): one `subject_views` row per subject,
 * visitor and Asia/Shanghai day. The daily rollups follow the rows by trigger, in the same
 * transaction, so nothing here touches them.
 */

/**
 * A kind whose page counts views (its registration's `views`): the integer column of its own
 * table that its pages and Hot score show, raised by a batch's new views of each subject.
 */
export interface ViewsMember {
  table: PgTable;
  id: PgColumn;
  views: PgColumn;
}

/** The usual `views` member: one integer column of the kind's own table. */
export function viewsColumn(table: PgTable, id: PgColumn, views: PgColumn): ViewsMember {
  return { table, id, views };
}

/** A kind with a page that counts views: its registration declares `views`. */
export type ViewedKind = SubjectType;

export function isViewedKind(type: string): type is ViewedKind {
  return isSubjectType(type) && subjectKind(type).views !== undefined;
}

/** The visitor every bot's views are filed under (one row per subject and day, `hits` counting them). */
export const botVisitor = "bot";

/** Whether a beacon's user agent is a crawler or other automaton (`isbot`); no user agent is one too. */
export function isBotAgent(userAgent: string | undefined): boolean {
  return !userAgent || isbot(userAgent);
}

/** How a view beacon was counted: a view, or filtered with its reason. */
export type ViewOutcome = "counted" | "repeat" | "bot";

/** Beacons of one subject, visitor and day, gathered before they are written. */
export interface ViewEntry {
  type: ViewedKind;
  id: number;
  /** The visitor's key, or `botVisitor` for every bot. */
  visitor: string;
  /** Asia/Shanghai day (YYYY-MM-DD). */
  day: string;
  bot: boolean;
  /** How many beacons (at least 1). */
  hits: number;
}

/** A read beacon waiting to mark its view. */
export interface ReadEntry {
  type: SubjectType;
  id: number;
  visitor: string;
  day: string;
  at: Date;
}

/** A written view row: whether this write made it (a view) or added hits to it (repeats). */
interface WrittenView {
  type: string;
  id: number;
  visitor: string;
  day: string;
  inserted: boolean;
}

/**
 * Writes gathered beacons in one transaction: one statement makes or raises every
 * `subject_views` row (repeats add to `hits`) and raises the kinds' `views` columns by the rows
 * it made; a second marks the reads (after the views, so a read whose view came in the same batch
 * finds it). The rollups follow by the table's statement triggers, one upsert per statement. Only
 * a rolled-back transaction fails, so a failed write leaves nothing to count twice.
 */
export async function writeViews(
  db: Executor,
  views: ViewEntry[],
  reads: ReadEntry[] = [],
): Promise<{ views: WrittenView[]; reads: number }> {
  return db.transaction(async (tx) => {
    let written: WrittenView[] = [];
    if (views.length > 0) {
      const rows = views.map((view) => ({ t: view.type, i: view.id, v: view.visitor, d: view.day, b: view.bot, h: view.hits }));
      const counters = kindsWith("views").map(
        ({ type, views: counter }, index) =>
          sql`, ${sql.identifier(`c${index}`)} as (update ${counter.table} set ${sql.identifier(counter.views.name)} = ${counter.views} + c.n
            from counted c where c.subject_type = ${type} and ${counter.id} = c.subject_id)`,
      );
      const result = await tx.execute(sql`
        with input as (
          select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(t text, i integer, v text, d date, b boolean, h integer)
        ),
        upserted as (
          insert into subject_views (subject_type, subject_id, visitor, day, bot, hits)
          select t, i, v, d, b, h from input order by t, i, v, d
          on conflict (subject_type, subject_id, visitor, day) do update set hits = subject_views.hits + excluded.hits
          returning subject_type, subject_id, visitor, day, bot, (xmax = 0) as inserted
        ),
        counted as (
          select subject_type, subject_id, count(*)::int as n from upserted where inserted and not bot group by 1, 2 order by 1, 2
        )${sql.join(counters, sql``)}
        select subject_type, subject_id, visitor, to_char(day, 'YYYY-MM-DD') as day, inserted from upserted`);
      written = (result as unknown as { rows: Record<string, unknown>[] }).rows.map((row) => ({
        type: String(row.subject_type),
        id: Number(row.subject_id),
        visitor: String(row.visitor),
        day: String(row.day),
        inserted: row.inserted === true,
      }));
    }
    let marked = 0;
    if (reads.length > 0) {
      const rows = reads.map((read) => ({ t: read.type, i: read.id, v: read.visitor, d: read.day, at: read.at.toISOString() }));
      const result = await tx.execute(sql`
        update subject_views s set read_at = r.at
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(t text, i integer, v text, d date, at timestamptz)
        where s.subject_type = r.t and s.subject_id = r.i and s.visitor = r.v and s.day = r.d and not s.bot and s.read_at is null
        returning 1`);
      marked = (result as unknown as { rows: unknown[] }).rows.length;
    }
    return { views: written, reads: marked };
  });
}

/**
 * Counts one view beacon at once (pages go through the `ViewBuffer`; tests and seeds call this).
 * The first of a visitor's day makes the row and raises the kind's `views` column; a repeat only
 * raises `hits`; a bot raises the day's bot row. One statement decides, so a reload, or two at
 * once, is one view under any concurrency.
 */
export async function recordView(
  options: ServiceOptions,
  subject: { type: ViewedKind; id: number },
  visitor: string,
  client: { bot: boolean },
  now: Date = new Date(),
): Promise<ViewOutcome> {
  const entry = viewEntry(subject, visitor, client.bot, now);
  const { views } = await writeViews(options.tx?.db ?? options.db, [entry]);
  if (client.bot) return "bot";
  return views[0]?.inserted ? "counted" : "repeat";
}

function viewEntry(subject: { type: ViewedKind; id: number }, visitor: string, bot: boolean, now: Date): ViewEntry {
  return { type: subject.type, id: subject.id, visitor: bot ? botVisitor : visitor, day: shanghaiDay(now), bot, hits: 1 };
}

/**
 * Marks today's view of a visitor as read (the read beacon: the end of the text was reached or
 * the page stayed `minimumReadSeconds`). Once per view; without a counted view first, nothing.
 */
export async function recordRead(
  options: ServiceOptions,
  subject: { type: SubjectType; id: number },
  visitor: string,
  now: Date = new Date(),
): Promise<boolean> {
  const { reads } = await writeViews(options.tx?.db ?? options.db, [], [{ ...subject, visitor, day: shanghaiDay(now), at: now }]);
  return reads > 0;
}

/**
 * The beacons of one process, gathered in memory and written every `intervalMs` in one
 * transaction (`writeViews`): a thousand beacons a second cost a few statements, not a thousand
 * transactions. Beacons of the same visitor, subject and day are one entry (repeats add hits), so
 * the write equals writing each beacon alone. A batch leaves the buffer before it is written:
 * a crash (kill -9) loses at most the beacons of one interval and never writes one twice; a
 * write that fails is retried only when the database rolled it back for certain (a deadlock or
 * serialization failure between processes), otherwise its beacons are dropped and logged.
 * `close` writes what is left (the server's shutdown). With `intervalMs` 0 every beacon is
 * written before `addView`/`addRead` answer (tests, which read the counts at once).
 */
export class ViewBuffer {
  #views = new Map<string, ViewEntry>();
  #reads = new Map<string, ReadEntry>();
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();
  #closed = false;
  readonly #db: Executor;
  readonly #intervalMs: number;
  readonly #log: { error(details: object, message: string): void };

  constructor(db: Executor, options: { intervalMs: number; log: { error(details: object, message: string): void } }) {
    this.#db = db;
    this.#intervalMs = options.intervalMs;
    this.#log = options.log;
    if (this.#intervalMs > 0) {
      this.#timer = setInterval(() => void this.flush(), this.#intervalMs);
      this.#timer.unref();
    }
  }

  /** How many entries wait to be written (views and reads). */
  get pending(): number {
    return this.#views.size + this.#reads.size;
  }

  async addView(subject: { type: ViewedKind; id: number }, visitor: string, bot: boolean, now: Date): Promise<void> {
    const entry = viewEntry(subject, visitor, bot, now);
    const key = `${entry.type}\u0000${entry.id}\u0000${entry.visitor}\u0000${entry.day}`;
    const gathered = this.#views.get(key);
    if (gathered) gathered.hits += 1;
    else this.#views.set(key, entry);
    await this.#afterAdd();
  }

  async addRead(subject: { type: ViewedKind; id: number }, visitor: string, now: Date): Promise<void> {
    const day = shanghaiDay(now);
    const key = `${subject.type}\u0000${subject.id}\u0000${visitor}\u0000${day}`;
    if (!this.#reads.has(key)) this.#reads.set(key, { type: subject.type, id: subject.id, visitor, day, at: now });
    await this.#afterAdd();
  }

  async #afterAdd(): Promise<void> {
    if (this.#intervalMs === 0 || this.#closed) await this.flush();
  }

  /** Writes everything gathered so far (after any write still running); resolves when it is written. */
  flush(): Promise<void> {
    this.#writing = this.#writing.then(() => this.#write());
    return this.#writing;
  }

  async #write(): Promise<void> {
    if (this.pending === 0) return;
    const views = [...this.#views.values()];
    const reads = [...this.#reads.values()];
    this.#views = new Map();
    this.#reads = new Map();
    for (let attempt = 1; ; attempt += 1) {
      try {
        await writeViews(this.#db, views, reads);
        return;
      } catch (error) {
        if (attempt < 3 && rolledBack(error)) continue;
        this.#log.error({ err: error, views: views.length, reads: reads.length }, "view beacons could not be written");
        return;
      }
    }
  }

  /** Stops the timer and writes what is left; later beacons are written as they come. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    await this.flush();
  }
}

/** A deadlock or serialization failure: the database rolled the whole transaction back. */
function rolledBack(error: unknown): boolean {
  const code = (error as { code?: string })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return code === "40P01" || code === "40001";
}

/** The time on a page that makes a view a read when the end of the text was not reached (the page's beacon). */
export const minimumReadSeconds = 30;
