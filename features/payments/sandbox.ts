import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { sandboxPayments } from "../../server/db/schema/index.ts";
import {
  NotifyRefused,
  type IncomingNotify,
  type PaymentOrderView,
  type PaymentProvider,
  type QueriedOrder,
  type VerifiedNotify,
} from "./provider.ts";

/** The header carrying the sandbox's signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export const sandboxSignatureHeader = "x-sandbox-signature";

/** A notify older than this is refused (a captured callback cannot be sent again days later). */
const toleranceSeconds = 10 * 60;

export interface SandboxNotifyBody {
  order_id: string;
  status: "paid" | "failed";
  /** Sinecoin of the order as the cashier showed it. */
  amount: number;
  /** What was "charged", in fen. */
  paid_fen: number;
  trade_no: string;
}

function signature(secret: string, timestamp: number, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

/** Signs a notify exactly as the sandbox sends it: the raw JSON body and its header. */
export function signSandboxNotify(secret: string, body: SandboxNotifyBody, now = new Date()): { rawBody: string; header: string } {
  const rawBody = JSON.stringify(body);
  const timestamp = Math.floor(now.getTime() / 1000);
  return { rawBody, header: `t=${timestamp},v1=${signature(secret, timestamp, rawBody)}` };
}

export type SandboxPayment = typeof sandboxPayments.$inferSelect;

/**
 * What the sandbox's cashier did with an order, recorded before it sends its notify (the provider's
 * side of the payment): the first press wins, a later one gets the first record back.
 */
export async function recordSandboxPayment(
  db: Database,
  order: PaymentOrderView,
  outcome: "paid" | "failed",
  now: Date,
): Promise<SandboxPayment> {
  await db
    .insert(sandboxPayments)
    .values({
      orderId: order.id,
      status: outcome,
      tradeNo: `sandbox_${randomBytes(8).toString("hex")}`,
      paidFen: order.priceFen,
      createdAt: now,
    })
    .onConflictDoNothing();
  const [record] = await db.select().from(sandboxPayments).where(eq(sandboxPayments.orderId, order.id));
  return record!;
}

/**
 * The built-in payment sandbox: its cashier is our page `/payments/sandbox/:orderId` (pay, fail,
 * cancel), which records what was done (`sandbox_payments`) and sends a signed notify to `POST
 * /api/payments/sandbox/notify/` like a real provider would; its order query answers from that
 * record. Nothing is charged.
 */
export function sandboxProvider(secret: string, clock: () => Date = () => new Date()): PaymentProvider {
  return {
    name: "sandbox",
    createPayment: async (_order: PaymentOrderView, urls) => urls.cashierUrl,
    acknowledgement: { contentType: "application/json", body: '{"received":true}' },
    async queryOrder(order: PaymentOrderView, { db }): Promise<QueriedOrder> {
      const [record] = await db.select().from(sandboxPayments).where(eq(sandboxPayments.orderId, order.id));
      if (!record) return { state: "open" };
      return { state: record.status, tradeNo: record.tradeNo, paidFen: record.paidFen };
    },
    verifyNotify(notify: IncomingNotify): VerifiedNotify {
      const header = notify.headers[sandboxSignatureHeader];
      const match = typeof header === "string" ? /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header) : null;
      if (!match) throw new NotifyRefused("bad_signature");
      const timestamp = Number(match[1]);
      const expected = Buffer.from(signature(secret, timestamp, notify.rawBody), "hex");
      if (!timingSafeEqual(expected, Buffer.from(match[2]!, "hex"))) throw new NotifyRefused("bad_signature");
      if (Math.abs(clock().getTime() / 1000 - timestamp) > toleranceSeconds) throw new NotifyRefused("stale");
      let body: Partial<SandboxNotifyBody>;
      try {
        body = JSON.parse(notify.rawBody) as Partial<SandboxNotifyBody>;
      } catch {
        throw new NotifyRefused("malformed");
      }
      if (
        typeof body.order_id !== "string" ||
        (body.status !== "paid" && body.status !== "failed") ||
        !Number.isSafeInteger(body.amount) ||
        !Number.isSafeInteger(body.paid_fen)
      )
        throw new NotifyRefused("malformed");
      return {
        orderId: body.order_id,
        outcome: body.status,
        tradeNo: typeof body.trade_no === "string" ? body.trade_no : null,
        paidFen: body.paid_fen!,
        amount: body.amount!,
      };
    },
  };
}
