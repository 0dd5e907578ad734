import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { tips, users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { assertDailyAllowance } from "../trust/limits.ts";
import { judgeAction } from "../trust/verdicts.ts";
import { onceByKey, requireIdempotencyKey } from "../../server/lib/idempotency.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { userTag } from "../../server/lib/cache-tags.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { emit } from "../events/bus.ts";
import { postLedgerTransaction } from "../ledger/service.ts";
import { acceptsInteraction, loadSubject, subjectKind } from "../subjects/registry.ts";
import type { LoadedSubject } from "../subjects/registry.ts";
import { authorShare } from "../wallet/settings.ts";
import type { TipInput } from "./schema.ts";

/** The platform's share of tips (0 % while the site is free: `TIP_PLATFORM_SHARE_PERCENT`). */
const platformTips = { system: "tip_fees", currency: "sinecoin" } as const;

export interface TipResult {
  tipId: number;
  amount: number;
  authorAmount: number;
  /** The tipper's sinecoin afterwards. */
  balance: number;
  tipCount: number;
}

/** The subject, if the viewer may read and tip it: a tippable kind, someone else's, tips switched on (writings). */
export async function tippableSubject(db: Database, viewer: Viewer | null, type: string, id: number): Promise<LoadedSubject> {
  // The kinds that accept tips say so in their subject registration (`interactions.tips`).
  if (!acceptsInteraction(type, "tips")) throw new AppError("not_found");
  const subject = await loadSubject(db, viewer, type, id);
  if (subject.authorId === null) throw new AppError("not_found");
  const switchedOn = subjectKind(subject.type).interactions?.tipsSwitchedOn;
  if (switchedOn && !(await switchedOn(db, subject.id))) throw new AppError("tips_disabled");
  return subject;
}

/**
 * A tip of `amount` sinecoin: one balanced ledger transaction (the tipper pays, the author gets it
 * minus the platform's share, recorded as profit), the tip row and the `tip.received` event that
 * tells the author, all in one transaction and once per idempotency key. A balance that does not
 * cover it is refused by the database (`insufficient_balance`), so 50 tips racing a balance for 10
 * let exactly 10 through.
 */
export async function tipSubject(
  options: ServiceOptions,
  viewer: Viewer,
  type: string,
  id: number,
  input: TipInput,
  idempotencyKey: string | undefined,
): Promise<TipResult> {
  const key = requireIdempotencyKey(idempotencyKey);
  const subject = await tippableSubject(options.db, viewer, type, id);
  const authorId = subject.authorId!;
  if (authorId === viewer.id) throw new AppError("cannot_tip_self");
  const authorAmount = authorShare(input.amount);
  const fee = input.amount - authorAmount;
  return inTransaction(options, (tx) =>
    onceByKey(tx, { userId: viewer.id, key, operation: "tip", input: { type, id, ...input } }, async () => {
      await assertDailyAllowance(tx.db, viewer.id, "tip");
      const [tip] = await tx.db
        .insert(tips)
        .values({
          subjectType: subject.type,
          subjectId: subject.id,
          tipperId: viewer.id,
          authorId,
          amount: input.amount,
          authorAmount,
          message: input.message ?? "",
          title: subject.title,
        })
        .returning({ id: tips.id });
      await postLedgerTransaction(tx, {
        idempotencyKey: `tip:${tip!.id}`,
        kind: "tip",
        data: {
          tipId: tip!.id,
          subjectType: subject.type,
          subjectId: subject.id,
          authorId,
          title: subject.title,
          path: subject.path,
          counterparty: viewer.nickname || viewer.username,
        },
        entries: [
          { account: { userId: viewer.id, currency: "sinecoin" }, amount: -input.amount },
          ...(authorAmount > 0 ? [{ account: { userId: authorId, currency: "sinecoin" as const }, amount: authorAmount }] : []),
          ...(fee > 0 ? [{ account: platformTips, amount: fee }] : []),
        ],
      });
      await judgeAction(tx.db, {
        action: "tip",
        actorId: viewer.id,
        receiverId: authorId,
        subjectType: subject.type,
        subjectId: subject.id,
      });
      await emit(tx, {
        verb: "tip.received",
        actorId: viewer.id,
        subjectType: subject.type,
        subjectId: subject.id,
        data: { tipId: tip!.id, amount: input.amount, authorAmount, authorId, source: "tips" },
        recipientIds: [authorId],
      });
      const [tipper] = await tx.db.select({ sinecoin: users.sinecoin }).from(users).where(eq(users.id, viewer.id));
      const [counted] = await tx.db
        .select({ count: sql<number>`count(distinct ${tips.tipperId})::int` })
        .from(tips)
        .where(and(eq(tips.subjectType, subject.type), eq(tips.subjectId, subject.id)));
      tx.invalidate(userTag(viewer.id), userTag(authorId), ...subject.tags.counts);
      return { tipId: tip!.id, amount: input.amount, authorAmount, balance: tipper!.sinecoin, tipCount: counted?.count ?? 1 };
    }),
  );
}

export interface Tipper {
  userId: number;
  username: string;
  nickname: string;
  avatar: string | null;
  total: number;
  lastAt: Date;
}

/** Who tipped a subject (each person once, newest first, with what they gave in all) and how many people did. */
export async function listTippers(db: Database, type: string, id: number, limit = 20): Promise<{ count: number; tippers: Tipper[] }> {
  const where = and(eq(tips.subjectType, type), eq(tips.subjectId, id));
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        userId: users.id,
        username: users.username,
        nickname: users.nickname,
        avatar: users.avatarSmall,
        total: sql<number>`sum(${tips.amount})::int`,
        lastAt: sql<Date>`max(${tips.createdAt})`,
      })
      .from(tips)
      .innerJoin(users, eq(users.id, tips.tipperId))
      .where(where)
      .groupBy(users.id)
      .orderBy(desc(sql`max(${tips.createdAt})`))
      .limit(limit),
    db
      .select({ count: sql<number>`count(distinct ${tips.tipperId})::int` })
      .from(tips)
      .where(where),
  ]);
  return { count: counted?.count ?? 0, tippers: rows.map((row) => ({ ...row, lastAt: new Date(row.lastAt) })) };
}
