import { AppError } from "../../common/app-error.ts";
import { inTransaction } from "../../server/lib/transactions.ts";
import { checkPassword, createSession, type SignedIn } from "../accounts/service.ts";
import type { LoginInput } from "../accounts/schema.ts";
import { findUserByLogin } from "../accounts/verified-sign-in.ts";
import { codeMessage } from "./messages.ts";
import type { LoginCodeSendInput } from "./schema.ts";
import { chargeAttempt, issueCode, matchCode, spendCode, type CodeSent, type CodeServices, type Requester } from "./service.ts";

/**
 * For people who cannot solve the slider puzzle: a code to the email address (or else the phone)
 * of the account named on the login form, good for one sign-in instead of the puzzle. The same
 * limits as every code; no puzzle, since this replaces it. The answer does not tell whether the
 * account exists.
 */
export async function sendLoginCode(
  services: CodeServices,
  input: LoginCodeSendInput,
  requester: Requester,
  now = new Date(),
): Promise<CodeSent> {
  const login = input.username.trim();
  const user = await findUserByLogin(services.db, login);
  const destination = user?.email
    ? { channel: "email" as const, to: user.email }
    : user?.phone
      ? { channel: "sms" as const, to: user.phone }
      : null;
  return issueCode(
    services,
    {
      purpose: "login_without_puzzle",
      recipient: destination ? destination.to.toLowerCase() : `name:${login.toLowerCase()}`,
      userId: user?.id ?? null,
      message: destination
        ? (code) => ({
            ...destination,
            carriesCode: true,
            ...codeMessage(requester.locale, "login_without_puzzle", destination.channel, code),
          })
        : null,
    },
    requester,
    now,
  );
}

/**
 * Password sign-in with the code in place of the puzzle. Without a valid code no password is
 * even checked (so the code, like the puzzle, stands before guessing); a wrong password costs the
 * code a try, and the code is spent by the sign-in it allows.
 */
export async function logInWithCode(
  services: Pick<CodeServices, "db" | "secret">,
  input: LoginInput & { login_code: string },
  requester: Requester,
  now = new Date(),
): Promise<SignedIn> {
  const client = { ip: requester.ip, userAgent: requester.userAgent };
  const user = await findUserByLogin(services.db, input.username);
  const recipient = user?.email?.toLowerCase() ?? user?.phone;
  // An unknown account has no code to match; it fails like a wrong password (throttled, same wording).
  if (!user || !recipient) {
    await checkPassword(services.db, input.username, input.password, client);
    throw new AppError("invalid_credentials");
  }
  const row = await matchCode(services, { purpose: "login_without_puzzle", recipient, userId: user.id }, input.login_code, now);
  let signedIn: SignedIn["user"];
  try {
    signedIn = await checkPassword(services.db, input.username, input.password, client);
  } catch (error) {
    if (error instanceof AppError && error.code === "invalid_credentials") await chargeAttempt(services.db, row.id, now);
    throw error;
  }
  return inTransaction({ db: services.db }, async (tx) => {
    await spendCode(tx, row.id, now);
    const token = await createSession(tx.db, signedIn.id, input.remember, client);
    return { user: signedIn, token, persistent: input.remember };
  });
}
