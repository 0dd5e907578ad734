import { AppError } from "../../common/app-error.ts";
import { inTransaction } from "../../server/lib/transactions.ts";
import { consumeSolvedChallenge } from "../captcha/service.ts";
import type { SignedIn } from "../accounts/service.ts";
import { assertUsernameAvailable, findUserByPhone, registerByPhone, startVerifiedSession } from "../accounts/verified-sign-in.ts";
import { codeMessage } from "./messages.ts";
import { normalizePhone, regionOfPhone } from "./phone.server.ts";
import type { SmsLoginInput, SmsSendCodeInput } from "./schema.ts";
import { issueCode, matchCode, spendCode, type CodeSent, type CodeServices, type Requester } from "./service.ts";

/** The E.164 form of a typed number, or "Invalid phone number!" on the phone field. */
export function phoneOrFail(phone: string, region: string | undefined): string {
  const e164 = normalizePhone(phone, region);
  if (!e164) throw new AppError("phone_invalid", { fields: { phone: "validation:phone_invalid" } });
  return e164;
}

/** After the puzzle (when it is on): a sign-in code by SMS to any valid mobile number. */
export async function sendSmsLoginCode(
  services: CodeServices,
  input: SmsSendCodeInput,
  requester: Requester,
  now = new Date(),
): Promise<CodeSent> {
  const phone = phoneOrFail(input.phone, input.region);
  if (services.captcha) await consumeSolvedChallenge(services.db, input.captcha);
  const user = await findUserByPhone(services.db, phone);
  return issueCode(
    services,
    {
      purpose: "sms_login",
      recipient: phone,
      userId: user?.id ?? null,
      message: (code) => ({ channel: "sms", to: phone, carriesCode: true, ...codeMessage(requester.locale, "sms_login", "sms", code) }),
    },
    requester,
    now,
  );
}

export interface SmsSignedIn extends SignedIn {
  /** The account was created by this sign-in. */
  created: boolean;
}

/**
 * Signs in the account bound to the phone, or, on the phone's first use, creates it with the
 * username given (without one the answer is `username_required` and the code stays valid).
 */
export async function logInBySms(
  services: CodeServices,
  input: SmsLoginInput,
  requester: Requester,
  now = new Date(),
): Promise<SmsSignedIn> {
  const phone = phoneOrFail(input.phone, input.region);
  const row = await matchCode(services, { purpose: "sms_login", recipient: phone }, input.code, now, "sms_code_incorrect");
  const client = { ip: requester.ip, userAgent: requester.userAgent };
  const existing = await findUserByPhone(services.db, phone);
  if (existing) {
    return inTransaction({ db: services.db }, async (tx) => {
      await spendCode(tx, row.id, now);
      return { ...(await startVerifiedSession({ db: services.db, tx }, existing, input.remember, client)), created: false };
    });
  }
  if (!input.username) throw new AppError("username_required", { fields: { username: "validation:username_for_phone" } });
  const username = input.username;
  await assertUsernameAvailable(services.db, username);
  return inTransaction({ db: services.db }, async (tx) => {
    await spendCode(tx, row.id, now);
    const country = regionOfPhone(phone) ?? "CN";
    return { ...(await registerByPhone({ db: services.db, tx }, { username, phone, country }, input.remember, client)), created: true };
  });
}
