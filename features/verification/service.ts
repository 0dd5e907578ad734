import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { and, count, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Database, Executor } from "../../server/db/client.ts";
import { verificationCodes } from "../../server/db/schema/index.ts";
import { AppError, type ErrorCode } from "../../common/app-error.ts";
import type { Locale } from "../../common/locale.ts";
import { inTransaction, type Transaction } from "../../server/lib/transactions.ts";
import { DeliveryError, type Delivery } from "../delivery/message.ts";
import { codeLimits, type DeliveryChannel, type VerificationPurpose } from "./constants.ts";
import type { MessageContent } from "./messages.ts";

/** What every code use case needs besides its input. */
export interface CodeServices {
  db: Database;
  delivery: Delivery;
  /** The key codes are HMAC'd with (the session secret), so stored hashes cannot be reversed by trying all million codes. */
  secret: string;
  /** A solved slider puzzle is required before a code is sent (the CAPTCHA setting). */
  captcha: boolean;
}

/** Who asks: their address (for the limits) and the language their messages are written in. */
export interface Requester {
  ip: string;
  userAgent: string;
  locale: Locale;
}

/** The answer to "send me a code": the same whether or not an account stands behind the address. */
export interface CodeSent {
  /** Seconds until another code may be asked for. */
  resend_after: number;
  /** Seconds the code stays valid. */
  expires_in: number;
}

export type CodeRow = typeof verificationCodes.$inferSelect;

function hashCode(secret: string, purpose: VerificationPurpose, recipient: string, code: string): string {
  return createHmac("sha256", secret).update(`${purpose}\n${recipient}\n${code}`).digest("hex");
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}

const seconds = (from: Date, to: Date) => Math.max(1, Math.ceil((to.getTime() - from.getTime()) / 1000));
const before = (now: Date, secondsAgo: number) => new Date(now.getTime() - secondsAgo * 1000);

export interface IssueInput {
  purpose: VerificationPurpose;
  /** Where the code goes (lower-cased email, E.164 phone) or `name:<typed>` when there is nowhere to send it. */
  recipient: string;
  userId: number | null;
  /** The message to send, or null to store the code without sending anything (no such account). */
  message: ((code: string) => MessageContent & { channel: DeliveryChannel; to: string; carriesCode: boolean }) | null;
}

/**
 * Stores a new code (replacing the recipient's open one for that purpose), after the limits:
 * one code a minute per purpose and recipient, 5 an hour per recipient, 20 an hour per IP.
 * The message is sent after the row has committed, outside the transaction; a failed send marks
 * the code failed (it no longer counts for the one-minute wait) and answers the channel's error.
 */
export async function issueCode(services: CodeServices, input: IssueInput, requester: Requester, now = new Date()): Promise<CodeSent> {
  const code = randomInt(0, 10 ** codeLimits.digits)
    .toString()
    .padStart(codeLimits.digits, "0");
  const id = await inTransaction({ db: services.db }, async (tx) => {
    // Two requests for the same recipient at once must not both pass the limits.
    await tx.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`verification:${input.recipient}`}))`);
    await assertMaySend(tx, input, requester.ip, now);
    await tx.db
      .update(verificationCodes)
      .set({ spentAt: now })
      .where(
        and(
          eq(verificationCodes.purpose, input.purpose),
          eq(verificationCodes.recipient, input.recipient),
          isNull(verificationCodes.spentAt),
        ),
      );
    const message = input.message?.(code);
    const [row] = await tx.db
      .insert(verificationCodes)
      .values({
        purpose: input.purpose,
        recipient: input.recipient,
        userId: input.userId,
        channel: message?.channel ?? null,
        codeHash: hashCode(services.secret, input.purpose, input.recipient, code),
        ip: requester.ip,
        createdAt: now,
        expiresAt: new Date(now.getTime() + codeLimits.validSeconds * 1000),
      })
      .returning({ id: verificationCodes.id });
    return { id: row!.id, message };
  });
  if (id.message) {
    const { channel, to, subject, text, carriesCode } = id.message;
    try {
      await services.delivery.send({ channel, to, subject, text, code: carriesCode ? code : null });
    } catch (error) {
      await services.db.update(verificationCodes).set({ failedAt: new Date() }).where(eq(verificationCodes.id, id.id));
      console.error("verification code delivery failed", error instanceof DeliveryError ? error.cause : error);
      throw new AppError(sendFailure(error));
    }
  }
  return { resend_after: codeLimits.resendSeconds, expires_in: codeLimits.validSeconds };
}

function sendFailure(error: unknown): ErrorCode {
  if (!(error instanceof DeliveryError) || error.transport === "outbox") return "code_send_failed";
  return error.channel === "email" ? "email_send_failed" : "sms_send_failed";
}

async function assertMaySend(tx: Transaction, input: IssueInput, ip: string, now: Date): Promise<void> {
  const [latest] = await tx.db
    .select({ createdAt: verificationCodes.createdAt })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.purpose, input.purpose),
        eq(verificationCodes.recipient, input.recipient),
        isNull(verificationCodes.failedAt),
      ),
    )
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  const resendAt = latest && new Date(latest.createdAt.getTime() + codeLimits.resendSeconds * 1000);
  if (resendAt && resendAt > now) throw new AppError("code_resend_wait", { params: { seconds: seconds(now, resendAt) } });

  const hourAgo = before(now, 60 * 60);
  const recipientWindow = await oldestInWindow(tx.db, eq(verificationCodes.recipient, input.recipient), hourAgo);
  if (recipientWindow.count >= codeLimits.perRecipientPerHour) throw sendLimited(now, recipientWindow.oldest!);
  const addressWindow = await oldestInWindow(tx.db, eq(verificationCodes.ip, ip), hourAgo);
  if (addressWindow.count >= codeLimits.perAddressPerHour) throw sendLimited(now, addressWindow.oldest!);
}

async function oldestInWindow(db: Executor, who: ReturnType<typeof eq>, since: Date): Promise<{ count: number; oldest: Date | null }> {
  const [row] = await db
    .select({ count: count(), oldest: sql<string | Date | null>`min(${verificationCodes.createdAt})` })
    .from(verificationCodes)
    .where(and(who, gt(verificationCodes.createdAt, since)));
  const oldest = row?.oldest ? new Date(row.oldest) : null;
  return { count: Number(row?.count ?? 0), oldest };
}

/** The hourly window frees a place when its oldest code turns an hour old. */
function sendLimited(now: Date, oldest: Date): AppError {
  const wait = seconds(now, new Date(oldest.getTime() + 60 * 60 * 1000));
  return new AppError("code_send_limited", { params: { seconds: wait, minutes: Math.ceil(wait / 60) } });
}

export interface CodeLookup {
  purpose: VerificationPurpose;
  recipient: string;
  /** Only codes sent for this account (sign-in without the puzzle). */
  userId?: number;
}

/**
 * Checks a code against the recipient's newest open code for the purpose. A wrong code costs a
 * try; the fifth wrong try spends the code. Returns the matching row, not yet spent: the caller
 * spends it (`spendCode`) in the transaction that acts on it.
 */
export async function matchCode(
  services: Pick<CodeServices, "db" | "secret">,
  lookup: CodeLookup,
  code: string,
  now = new Date(),
  wrongCode: ErrorCode = "code_incorrect",
): Promise<CodeRow> {
  const outcome = await inTransaction({ db: services.db }, async (tx): Promise<{ row: CodeRow } | { error: ErrorCode }> => {
    const [row] = await tx.db
      .select()
      .from(verificationCodes)
      .where(
        and(
          eq(verificationCodes.purpose, lookup.purpose),
          eq(verificationCodes.recipient, lookup.recipient),
          lookup.userId === undefined ? undefined : eq(verificationCodes.userId, lookup.userId),
          isNull(verificationCodes.spentAt),
          isNull(verificationCodes.failedAt),
        ),
      )
      .orderBy(desc(verificationCodes.createdAt))
      .limit(1)
      .for("update");
    if (!row || row.expiresAt <= now) return { error: "code_expired" };
    if (row.attempts >= codeLimits.maxAttempts) return { error: "code_attempts_exceeded" };
    if (sameHash(row.codeHash, hashCode(services.secret, lookup.purpose, lookup.recipient, code))) return { row };
    return { error: await chargeAttempt(tx.db, row.id, now, wrongCode) };
  });
  if ("error" in outcome) throw new AppError(outcome.error);
  return outcome.row;
}

/** A wrong answer (a wrong code, or a wrong password beside a right code) costs the code a try. */
export async function chargeAttempt(db: Executor, id: number, now: Date, wrongCode: ErrorCode = "code_incorrect"): Promise<ErrorCode> {
  const exhausted = sql`${verificationCodes.attempts} + 1 >= ${codeLimits.maxAttempts}`;
  const [row] = await db
    .update(verificationCodes)
    .set({
      attempts: sql`${verificationCodes.attempts} + 1`,
      spentAt: sql`case when ${exhausted} then ${now.toISOString()}::timestamptz else ${verificationCodes.spentAt} end`,
    })
    .where(eq(verificationCodes.id, id))
    .returning({ attempts: verificationCodes.attempts });
  return row && row.attempts >= codeLimits.maxAttempts ? "code_attempts_exceeded" : wrongCode;
}

/** Uses the code up, once: a second use (or a race with one) is refused as expired. */
export async function spendCode(tx: Transaction, id: number, now: Date): Promise<void> {
  const [spent] = await tx.db
    .update(verificationCodes)
    .set({ spentAt: now })
    .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.spentAt)))
    .returning({ id: verificationCodes.id });
  if (!spent) throw new AppError("code_expired");
}

/** Codes are kept an hour past their expiry for the hourly limits, then forgotten. */
export async function deleteStaleCodes(db: Executor, now = new Date()): Promise<void> {
  await db.delete(verificationCodes).where(lt(verificationCodes.expiresAt, before(now, 60 * 60)));
}
