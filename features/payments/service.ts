import { randomBytes } from "node:crypto";
import { and, asc, eq, gte, inArray, lte, ne, sql } from "drizzle-orm";
import type { Database, Executor } from "../../server/db/client.ts";
import { paymentCallbacks, paymentOrders, users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { onceByKey, requireIdempotencyKey } from "../../server/lib/idempotency.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { userTag } from "../../server/lib/cache-tags.ts";
import { postLedgerTransaction } from "../ledger/service.ts";
import { emit } from "../events/bus.ts";
import { economySettings } from "../wallet/settings.ts";
import { NotifyRefused, type IncomingNotify, type PaymentOrderView, type QueriedOrder, type VerifiedNotify } from "./provider.ts";
import { paymentSettings, providerFor, providerNamed } from "./settings.ts";
import { recordSandboxPayment, sandboxSignatureHeader, signSandboxNotify } from "./sandbox.ts";

export type PaymentOrder = typeof paymentOrders.$inferSelect;

/** Where top-ups are issued from: it goes negative by every sinecoin sold. */
const topupIssuer = { system: "topups", currency: "sinecoin" } as const;

export interface CreatedTopup {
  orderId: string;
  payUrl: string;
}

/** The order's own page (`/wallet/topups/<id>`) in the viewer's language. */
export function orderPath(orderId: string, locale: Locale): string {
  return localizePath(`/wallet/topups/${orderId}`, locale);
}

/**
 * A top-up order (15 minutes open) for `amount` sinecoin paid by `method`; the payer is sent to
 * the provider's cashier (in sandbox mode our sandbox cashier). One order per idempotency key.
 */
export async function createTopup(
  options: ServiceOptions,
  userId: number,
  input: { amount: number; method: "wechat" | "alipay" },
  idempotencyKey: string | undefined,
  now: Date,
  locale: Locale,
): Promise<CreatedTopup> {
  const key = requireIdempotencyKey(idempotencyKey);
  if (paymentSettings().mode === "closed") throw new AppError("topups_closed");
  const provider = providerFor(input.method);
  if (!provider) throw new AppError("topup_failed");
  if (input.amount < economySettings.topupMin || input.amount > economySettings.topupMax) throw new AppError("validation_failed");
  const { orderId } = await inTransaction(options, (tx) =>
    onceByKey(tx, { userId, key, operation: "topup", input }, async () => {
      if (economySettings.topupFenPerSinecoin === 0) {
        // The user's row locked: two racing orders cannot both fit in what is left today.
        await tx.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
        if (input.amount > (await freeTopupLeft(tx.db, userId, now))) throw new AppError("topup_daily_limit");
      }
      const id = `tp_${randomBytes(12).toString("base64url")}`;
      await tx.db.insert(paymentOrders).values({
        id,
        userId,
        amount: input.amount,
        priceFen: input.amount * economySettings.topupFenPerSinecoin,
        method: input.method,
        provider: provider.name,
        createdAt: now,
        expiresAt: new Date(now.getTime() + economySettings.orderMinutes * 60_000),
      });
      return { orderId: id };
    }),
  );
  const [order] = await options.db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
  const { publicUrl } = paymentSettings();
  const returnUrl = `${publicUrl}${orderPath(orderId, locale)}`;
  const payUrl = await provider.createPayment(
    { id: orderId, amount: order!.amount, priceFen: order!.priceFen, method: order!.method },
    {
      notifyUrl: `${publicUrl}/api/payments/${provider.name}/notify/`,
      returnUrl,
      cashierUrl: localizePath(`/payments/sandbox/${orderId}`, locale),
    },
  );
  return { orderId, payUrl };
}

/**
 * What the user may still top up free today (Asia/Shanghai), or null when top-ups are charged:
 * `FREE_TOPUP_DAILY_LIMIT` less today's open and paid orders.
 */
export async function freeTopupLeft(db: Executor, userId: number, now: Date): Promise<number> {
  const eightHours = 8 * 3_600_000;
  const shifted = now.getTime() + eightHours;
  const dayStart = new Date(shifted - (shifted % 86_400_000) - eightHours);
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${paymentOrders.amount}), 0)::int` })
    .from(paymentOrders)
    .where(
      and(eq(paymentOrders.userId, userId), gte(paymentOrders.createdAt, dayStart), inArray(paymentOrders.status, ["created", "paid"])),
    );
  return Math.max(0, economySettings.freeTopupDailyLimit - Number(row?.total ?? 0));
}

/** The viewer's own order row as stored (another's is `not_found`). */
async function ownOrder(db: Database, userId: number, orderId: string): Promise<PaymentOrder> {
  const [order] = await db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.id, orderId), eq(paymentOrders.userId, userId)));
  if (!order) throw new AppError("not_found");
  return order;
}

/** How an order reads: an open order past its time reads as expired (the job marks it soon). */
function asRead(order: PaymentOrder, now: Date): PaymentOrder {
  return order.status === "created" && order.expiresAt <= now ? { ...order, status: "expired" } : order;
}

/** The viewer's own order (another's is `not_found`); an open order past its time reads as expired. */
export async function getTopup(db: Database, userId: number, orderId: string, now: Date): Promise<PaymentOrder> {
  return asRead(await ownOrder(db, userId, orderId), now);
}

/** An order as the sandbox cashier shows it (any signed-in owner). */
export const findTopupForCashier = getTopup;

/** Logs what went wrong with a provider (never a secret): the server's logger, or a test's. */
export type PaymentLog = (message: string, details: Record<string, unknown>) => void;

const consoleLog: PaymentLog = (message, details) => console.warn(message, details);

/**
 * The viewer's order as `getTopup` reads it, after asking its provider while it is still
 * `created` (the payer back from the cashier, `GET /api/wallet/topups/{id}/`): a payment whose
 * notify has not arrived (or never will) is credited now, once.
 */
export async function refreshTopup(
  db: Database,
  userId: number,
  orderId: string,
  now: Date,
  log: PaymentLog = consoleLog,
): Promise<PaymentOrder> {
  const order = await ownOrder(db, userId, orderId);
  // Still open in our books, even past its 15 minutes: the payer may have paid late.
  if (order.status !== "created") return order;
  const settled = await settleByQuery(db, order, now, log);
  if (settled === "open" || settled === "unavailable" || settled === "refused") return asRead(order, now);
  return getTopup(db, userId, orderId, now);
}

function orderView(order: PaymentOrder): PaymentOrderView {
  return { id: order.id, amount: order.amount, priceFen: order.priceFen, method: order.method };
}

/**
 * Asks an open order's provider what became of it and applies a paid or failed answer exactly as
 * a verified notify (the same `applyNotify` under the same row lock: whichever of the notify and
 * the query comes first credits, the other finds the order paid). Every settling answer is
 * recorded in `payment_callbacks` (`query:…`). `open` when the provider says it is still open;
 * `unavailable` when it cannot be asked (not configured, unreachable, its answer fails its check:
 * logged, nothing changes).
 */
export async function settleByQuery(
  db: Database,
  order: PaymentOrder,
  now: Date,
  log: PaymentLog = consoleLog,
): Promise<NotifyOutcome | "open" | "unavailable" | "refused"> {
  const provider = providerNamed(order.provider);
  if (!provider) return "unavailable";
  let answer: QueriedOrder;
  try {
    answer = await provider.queryOrder(orderView(order), { db });
  } catch (err) {
    log("payment order query failed", { provider: order.provider, orderId: order.id, err: (err as Error).message });
    return "unavailable";
  }
  if (answer.state === "open") return "open";
  const record = (outcome: string) =>
    db
      .insert(paymentCallbacks)
      .values({ provider: order.provider, orderId: order.id, outcome: `query:${outcome}`, payload: { query: answer }, createdAt: now });
  try {
    const outcome = await applyNotify(
      { db },
      order.provider,
      { orderId: order.id, outcome: answer.state, tradeNo: answer.tradeNo, paidFen: answer.paidFen },
      now,
    );
    await record(outcome);
    return outcome;
  } catch (error) {
    if (!(error instanceof NotifyRefused)) throw error;
    log("payment order query refused", { provider: order.provider, orderId: order.id, reason: error.reason });
    await record(`refused:${error.reason}`);
    return "refused";
  }
}

/** `late_paid`: a paid answer for an order already failed or expired: nothing is credited (refunded by hand). */
export type NotifyOutcome = "credited" | "replayed" | "failed" | "ignored" | "late_paid";

/**
 * Applies a verified notify exactly once: the order row is locked, a paid order is credited by one
 * ledger transaction keyed `topup:<order>` (a replayed or concurrent notify finds it paid and
 * credits nothing); the amount must be the order's. Failed and expired are final, as with the
 * real providers: a paid answer for such an order credits nothing, is logged and recorded
 * (`late_paid` in `payment_callbacks`) so the payment is refunded by hand.
 */
export async function applyNotify(
  options: ServiceOptions,
  providerName: string,
  verified: VerifiedNotify,
  now: Date,
): Promise<NotifyOutcome> {
  return inTransaction(options, async (tx) => {
    const [order] = await tx.db.select().from(paymentOrders).where(eq(paymentOrders.id, verified.orderId)).for("update");
    if (!order || order.provider !== providerName) throw new NotifyRefused("unknown_order", verified.orderId);
    if (verified.paidFen !== order.priceFen || (verified.amount !== undefined && verified.amount !== order.amount))
      throw new NotifyRefused("wrong_amount", order.id);
    if (verified.outcome === "failed") {
      if (order.status !== "created") return "ignored";
      await tx.db.update(paymentOrders).set({ status: "failed", settledAt: now }).where(eq(paymentOrders.id, order.id));
      return "failed";
    }
    if (order.status === "paid") return "replayed";
    if (order.status === "failed" || order.status === "expired") {
      consoleLog("late payment of a closed order: refund it by hand", {
        provider: providerName,
        orderId: order.id,
        status: order.status,
        tradeNo: verified.tradeNo,
      });
      return "late_paid";
    }
    await tx.db
      .update(paymentOrders)
      .set({ status: "paid", settledAt: now, providerTradeNo: verified.tradeNo })
      .where(and(eq(paymentOrders.id, order.id), ne(paymentOrders.status, "paid")));
    await postLedgerTransaction(tx, {
      idempotencyKey: `topup:${order.id}`,
      kind: "topup",
      data: { orderId: order.id, method: order.method, provider: providerName },
      entries: [
        { account: { userId: order.userId, currency: "sinecoin" }, amount: order.amount },
        { account: topupIssuer, amount: -order.amount },
      ],
    });
    await emit(tx, {
      verb: "topup.credited",
      actorId: order.userId,
      subjectId: order.userId,
      data: { orderId: order.id, amount: order.amount, method: order.method, provider: providerName },
    });
    tx.invalidate(userTag(order.userId));
    return "credited";
  });
}

export interface NotifyAnswer {
  outcome: NotifyOutcome;
  acknowledgement: { contentType: string; body: string };
}

/**
 * A provider's notify, as the endpoint receives it: verified by the provider, applied once, and
 * every one recorded in `payment_callbacks`, refused ones with their reason (bad signature, wrong
 * amount, unknown order); a refusal credits nothing and answers 400 `payment_refused`.
 */
export async function receiveNotify(
  db: Database,
  providerName: string,
  notify: IncomingNotify,
  now: Date,
  log: (reason: string, orderId: string | null) => void,
): Promise<NotifyAnswer> {
  const provider = providerNamed(providerName);
  if (!provider) throw new AppError("not_found");
  const record = (orderId: string | null, outcome: string) =>
    db
      .insert(paymentCallbacks)
      .values({ provider: providerName, orderId, outcome, payload: { body: notify.rawBody.slice(0, 4000) }, createdAt: now });
  try {
    const verified = provider.verifyNotify(notify);
    const outcome = await applyNotify({ db }, providerName, verified, now);
    await record(verified.orderId, outcome);
    return { outcome, acknowledgement: provider.acknowledgement };
  } catch (error) {
    if (!(error instanceof NotifyRefused)) throw error;
    log(error.reason, error.orderId);
    await record(error.orderId, `refused:${error.reason}`);
    throw new AppError("payment_refused");
  }
}

/** Orders the expiry job asks about per run (the rest wait for the next minute). */
const expiryBatch = 100;
/** An order whose provider cannot be asked is expired anyway this long after its time (a late notify still credits it). */
const unanswerableGraceMs = 24 * 60 * 60_000;

/**
 * Open orders past their 15 minutes (the job in features/payments/jobs.ts; safe in every process):
 * each provider is asked first, so a payment whose notify was lost is credited instead of expired;
 * an order still open at its provider becomes expired. One the provider cannot be asked about
 * waits for the next run, for a day at most. Returns how many became expired.
 */
export async function expireOrders(db: Database, now: Date, log: PaymentLog = consoleLog): Promise<number> {
  const overdue = await db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.status, "created"), lte(paymentOrders.expiresAt, now)))
    .orderBy(asc(paymentOrders.expiresAt))
    .limit(expiryBatch);
  let expired = 0;
  for (const order of overdue) {
    const settled = await settleByQuery(db, order, now, log);
    if (settled !== "open" && !(settled === "unavailable" && now.getTime() - order.expiresAt.getTime() > unanswerableGraceMs)) continue;
    const rows = await db
      .update(paymentOrders)
      .set({ status: "expired", settledAt: now })
      .where(and(eq(paymentOrders.id, order.id), eq(paymentOrders.status, "created")))
      .returning({ id: paymentOrders.id });
    expired += rows.length;
  }
  return expired;
}

/** Balances after a top-up, for the order page. */
export async function sinecoinOf(db: Database, userId: number): Promise<number> {
  const [row] = await db.select({ sinecoin: users.sinecoin }).from(users).where(eq(users.id, userId));
  return row?.sinecoin ?? 0;
}

/**
 * The sandbox cashier's pay and fail buttons: the sandbox records what was done (its side of the
 * payment, which its order query answers from), then sends the signed notify, handed to the same
 * `receiveNotify` as `POST /api/payments/sandbox/notify/` (it verifies the signature too).
 */
export async function sandboxNotify(db: Database, order: PaymentOrder, outcome: "paid" | "failed", now: Date): Promise<NotifyOutcome> {
  const record = await recordSandboxPayment(db, orderView(order), outcome, now);
  const signed = signSandboxNotify(
    paymentSettings().sandboxSecret,
    { order_id: order.id, status: record.status, amount: order.amount, paid_fen: record.paidFen, trade_no: record.tradeNo },
    now,
  );
  const answer = await receiveNotify(
    db,
    "sandbox",
    { headers: { [sandboxSignatureHeader]: signed.header }, rawBody: signed.rawBody },
    now,
    (reason) => console.warn("sandbox notify refused", reason),
  );
  return answer.outcome;
}
