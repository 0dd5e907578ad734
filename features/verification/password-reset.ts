import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lt } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { passwordResetTokens } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { inTransaction } from "../../server/lib/transactions.ts";
import { consumeSolvedChallenge } from "../captcha/service.ts";
import { hashPassword } from "../accounts/passwords.server.ts";
import { findUserByEmail, replacePassword } from "../accounts/verified-sign-in.ts";
import { codeLimits } from "./constants.ts";
import { codeMessage, noAccountMessage } from "./messages.ts";
import type { PasswordResetSendCodeInput, PasswordResetSetInput, PasswordResetVerifyInput } from "./schema.ts";
import { issueCode, matchCode, spendCode, type CodeSent, type CodeServices, type Requester } from "./service.ts";

const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Step 1 of spec section 4 (after the puzzle, when it is on). The answer is the same whether or
 * not an account uses the address: a code row is stored either way (so the limits and the
 * verify step behave alike), and a mail goes out either way — the code to an account's owner, a
 * "no account uses this address" note otherwise — so the timing and send failures match too.
 */
export async function sendPasswordResetCode(
  services: CodeServices,
  input: PasswordResetSendCodeInput,
  requester: Requester,
  now = new Date(),
): Promise<CodeSent> {
  if (services.captcha) await consumeSolvedChallenge(services.db, input.captcha);
  const email = input.email.trim();
  const user = await findUserByEmail(services.db, email);
  return issueCode(
    services,
    {
      purpose: "password_reset",
      recipient: email.toLowerCase(),
      userId: user?.id ?? null,
      message: (code) =>
        user
          ? {
              channel: "email",
              to: user.email ?? email,
              carriesCode: true,
              ...codeMessage(requester.locale, "password_reset", "email", code),
            }
          : { channel: "email", to: email, carriesCode: false, ...noAccountMessage(requester.locale) },
    },
    requester,
    now,
  );
}

export interface ResetPermission {
  /** Lets `setPasswordWithToken` change the password once, within `expires_in` seconds. */
  token: string;
  expires_in: number;
}

/** Step 2: a right code becomes a short-lived, single-use reset token (only its hash is stored). */
export async function verifyPasswordResetCode(
  services: CodeServices,
  input: PasswordResetVerifyInput,
  now = new Date(),
): Promise<ResetPermission> {
  const row = await matchCode(services, { purpose: "password_reset", recipient: input.email.trim().toLowerCase() }, input.code, now);
  // A stored code without an account was never sent to anyone, so it cannot be typed right.
  if (row.userId === null) throw new AppError("code_expired");
  const userId = row.userId;
  const token = randomBytes(32).toString("base64url");
  await inTransaction({ db: services.db }, async (tx) => {
    await spendCode(tx, row.id, now);
    await tx.db.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, userId));
    await tx.db.insert(passwordResetTokens).values({
      tokenHash: tokenHash(token),
      userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + codeLimits.resetTokenSeconds * 1000),
    });
  });
  return { token, expires_in: codeLimits.resetTokenSeconds };
}

/**
 * Step 3: the new password (rules of spec section 5, checked by the schema). The token is used
 * up, and every session of the account ends. An unknown, used or expired token: "password update
 * timeout".
 */
export async function setPasswordWithToken(
  services: Pick<CodeServices, "db">,
  input: PasswordResetSetInput,
  now = new Date(),
): Promise<{ userId: number }> {
  const hash = tokenHash(input.token);
  const live = and(eq(passwordResetTokens.tokenHash, hash), gt(passwordResetTokens.expiresAt, now));
  const [valid] = await services.db.select({ userId: passwordResetTokens.userId }).from(passwordResetTokens).where(live);
  if (!valid) throw new AppError("reset_token_expired");
  // Hashing is slow: before the transaction, which then makes sure the token is still unused.
  const passwordHash = await hashPassword(input.password);
  return inTransaction({ db: services.db }, async (tx) => {
    const [used] = await tx.db.delete(passwordResetTokens).where(live).returning({ userId: passwordResetTokens.userId });
    if (!used) throw new AppError("reset_token_expired");
    await replacePassword({ db: services.db, tx }, used.userId, passwordHash);
    return { userId: used.userId };
  });
}

export async function deleteExpiredResetTokens(db: Executor, now = new Date()): Promise<void> {
  await db.delete(passwordResetTokens).where(lt(passwordResetTokens.expiresAt, now));
}
