import { and, eq, isNull, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { isbot } from "isbot";
import { subjectViews } from "../../server/db/schema/index.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { inTransaction, type ServiceOptions, type Transaction } from "../../server/lib/transactions.ts";
import { isSubjectType, type SubjectType } from "../subjects/types.ts";
import { subjectKind } from "../subjects/registry.ts";

/**
 * Views and reads of every kind (docs/features/metrics.md): one `subject_views` row per subject,
 * visitor and Asia/Shanghai day. The daily rollups follow the rows by trigger, in the same
 * transaction, so nothing here touches them.
 */

/**
 * A kind whose page counts views (its registration's `views`): `counted` raises the stored view
 * count its pages and Hot score show, in the transaction of the visitor's first view of the day.
 */
export interface ViewsMember {
  counted(tx: Transaction, id: number): Promise<void>;
}

/** The usual `views` member: one integer column of the kind's own table, raised by one. */
export function viewsColumn(table: PgTable, id: PgColumn, views: PgColumn): ViewsMember {
  return {
    async counted(tx, subjectId) {
      await tx.db.execute(sql`update ${table} set ${sql.identifier(views.name)} = ${views} + 1 where ${id} = ${subjectId}`);
    },
  };
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

/**
 * Counts one view beacon. The first of a visitor's day makes the row and raises the kind's `views`
 * column; a repeat only raises `hits`; a bot raises the day's bot row. One statement decides, so a
 * reload, or two at once, is one view under any concurrency.
 */
export async function recordView(
  options: ServiceOptions,
  subject: { type: ViewedKind; id: number },
  visitor: string,
  client: { bot: boolean },
  now: Date = new Date(),
): Promise<ViewOutcome> {
  return inTransaction(options, async (tx) => {
    const key = client.bot ? botVisitor : visitor;
    const [row] = await tx.db
      .insert(subjectViews)
      .values({ subjectType: subject.type, subjectId: subject.id, visitor: key, day: shanghaiDay(now), bot: client.bot })
      .onConflictDoUpdate({
        target: [subjectViews.subjectType, subjectViews.subjectId, subjectViews.visitor, subjectViews.day],
        set: { hits: sql`${subjectViews.hits} + 1` },
      })
      .returning({ hits: subjectViews.hits });
    if (client.bot) return "bot";
    if (row && row.hits > 1) return "repeat";
    await subjectKind(subject.type).views?.counted(tx, subject.id);
    return "counted";
  });
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
  return inTransaction(options, async (tx) => {
    const marked = await tx.db
      .update(subjectViews)
      .set({ readAt: now })
      .where(
        and(
          eq(subjectViews.subjectType, subject.type),
          eq(subjectViews.subjectId, subject.id),
          eq(subjectViews.visitor, visitor),
          eq(subjectViews.day, shanghaiDay(now)),
          eq(subjectViews.bot, false),
          isNull(subjectViews.readAt),
        ),
      )
      .returning({ day: subjectViews.day });
    return marked.length > 0;
  });
}

/** The time on a page that makes a view a read when the end of the text was not reached (the page's beacon). */
export const minimumReadSeconds = 30;
