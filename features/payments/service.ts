import { randomBytes } from "node:crypto";
import { and, eq, lte, ne } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { paymentCallbacks, paymentOrders, users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { onceByKey, requireIdempotencyKey } from "../../server/lib/idempotency.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { userTag } from "../../server/lib/cache-tags.ts";
import { postLedgerTransaction } from "../ledger/service.ts";
import { economySettings } from "../wallet/settings.ts";
import { NotifyRefused, type IncomingNotify, type VerifiedNotify } from "./provider.ts";
import { paymentSettings, providerFor, providerNamed } from "./settings.ts";
import { sandboxSignatureHeader, signSandboxNotify } from "./sandbox.ts";

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
  const provider = providerFor(input.method);
  if (!provider) throw new AppError("topup_failed");
  if (input.amount < economySettings.topupMin || input.amount > economySettings.topupMax) throw new AppError("validation_failed");
  const { orderId } = await inTransaction(options, (tx) =>
    onceByKey(tx, { userId, key, operation: "topup", input }, async () => {
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

/** The viewer's own order (another's is `not_found`); an open order past its time reads as expired. */
export async function getTopup(db: Database, userId: number, orderId: string, now: Date): Promise<PaymentOrder> {
  const [order] = await db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.id, orderId), eq(paymentOrders.userId, userId)));
  if (!order) throw new AppError("not_found");
  if (order.status === "created" && order.expiresAt <= now) return { ...order, status: "expired" };
  return order;
}

/** An order as the sandbox cashier shows it (any signed-in owner). */
export const findTopupForCashier = getTopup;

export type NotifyOutcome = "credited" | "replayed" | "failed" | "ignored";

/**
 * Applies a verified notify exactly once: the order row is locked, a paid order is credited by one
 * ledger transaction keyed `topup:<order>` (a replayed or concurrent notify finds it paid and
 * credits nothing); the amount must be the order's. A late payment of an expired order is still
 * credited: the provider took the money.
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

/** Open orders past their 15 minutes become expired (the job in features/payments/jobs.ts; safe to run in every process). */
export async function expireOrders(db: Database, now: Date): Promise<number> {
  const expired = await db
    .update(paymentOrders)
    .set({ status: "expired", settledAt: now })
    .where(and(eq(paymentOrders.status, "created"), lte(paymentOrders.expiresAt, now)))
    .returning({ id: paymentOrders.id });
  return expired.length;
}

/** Balances after a top-up, for the order page. */
export async function sinecoinOf(db: Database, userId: number): Promise<number> {
  const [row] = await db.select({ sinecoin: users.sinecoin }).from(users).where(eq(users.id, userId));
  return row?.sinecoin ?? 0;
}

/**
 * The sandbox cashier's pay and fail buttons: the signed notify the sandbox sends, handed to the
 * same `receiveNotify` as `POST /api/payments/sandbox/notify/` (it verifies the signature too).
 */
export async function sandboxNotify(db: Database, order: PaymentOrder, outcome: "paid" | "failed", now: Date): Promise<NotifyOutcome> {
  const signed = signSandboxNotify(
    paymentSettings().sandboxSecret,
    {
      order_id: order.id,
      status: outcome,
      amount: order.amount,
      paid_fen: order.priceFen,
      trade_no: `sandbox_${randomBytes(8).toString("hex")}`,
    },
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
