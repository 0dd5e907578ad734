import { z } from "zod";
import { defineOperation, noContent, type OperationServices } from "../../server/lib/operation.ts";
import { currentUserAnswer, presentSignedIn, startSession } from "../accounts/operations.ts";
import { sendLoginCode } from "./login-code.ts";
import { sendPasswordResetCode, setPasswordWithToken, verifyPasswordResetCode } from "./password-reset.ts";
import {
  loginCodeSendSchema,
  passwordResetSendCodeSchema,
  passwordResetSetSchema,
  passwordResetVerifySchema,
  smsLoginSchema,
  smsSendCodeSchema,
} from "./schema.ts";
import type { CodeServices, Requester } from "./service.ts";
import { logInBySms, sendSmsLoginCode } from "./sms-login.ts";
import "./settings.ts";

/* SMS sign-in, the puzzle's alternative and password reset: everything that sends or checks a code. */

/** A code went out: when another may be asked for and how long this one holds. */
export const codeSentAnswer = z.strictObject({ resend_after: z.number(), expires_in: z.number() });

export function codeServicesOf(services: OperationServices): CodeServices {
  const { delivery, sessionSecret, captcha } = services.settings;
  return { db: services.db, delivery, secret: sessionSecret, captcha };
}

export const requesterOf = (services: OperationServices): Requester => ({
  ip: services.client.address,
  userAgent: services.client.userAgent,
  locale: services.locale,
});

const codeNow = (services: OperationServices) => services.settings.codeClock?.() ?? new Date();

/** Refusals of every use case that sends a code. */
const sendFailures = ["captcha_required", "captcha_failed", "code_resend_wait", "code_send_limited", "code_send_failed"] as const;
const deliveryFailures = ["email_send_failed", "sms_send_failed"] as const;

export const sendSmsCodeOperation = defineOperation({
  name: "sendSmsLoginCode",
  input: { body: smsSendCodeSchema },
  viewer: "optional",
  run: (services, _viewer, { body }) => sendSmsLoginCode(codeServicesOf(services), body, requesterOf(services), codeNow(services)),
  present: (sent) => sent,
  response: codeSentAnswer,
  failures: [...sendFailures, ...deliveryFailures, "phone_invalid"],
});

export const smsLogInOperation = defineOperation({
  name: "smsLogIn",
  input: { body: smsLoginSchema },
  viewer: "optional",
  run: async (services, _viewer, { body }) => {
    const signedIn = await logInBySms(codeServicesOf(services), body, requesterOf(services), codeNow(services));
    // The phone's first sign-in created the account.
    if (signedIn.created) services.answer.status(201);
    await startSession(services, signedIn);
    return signedIn;
  },
  present: presentSignedIn,
  response: currentUserAnswer,
  failures: ["phone_invalid", "sms_code_incorrect", "code_expired", "code_attempts_exceeded", "username_required", "username_exists"],
});

export const sendLoginCodeOperation = defineOperation({
  name: "sendLoginCode",
  input: { body: loginCodeSendSchema },
  viewer: "optional",
  run: (services, _viewer, { body }) => sendLoginCode(codeServicesOf(services), body, requesterOf(services), codeNow(services)),
  present: (sent) => sent,
  response: codeSentAnswer,
  failures: [...sendFailures, ...deliveryFailures],
});

export const sendPasswordResetCodeOperation = defineOperation({
  name: "sendPasswordResetCode",
  input: { body: passwordResetSendCodeSchema },
  viewer: "optional",
  run: (services, _viewer, { body }) => sendPasswordResetCode(codeServicesOf(services), body, requesterOf(services), codeNow(services)),
  present: (sent) => sent,
  response: codeSentAnswer,
  failures: [...sendFailures, "email_send_failed"],
});

export const verifyPasswordResetCodeOperation = defineOperation({
  name: "verifyPasswordResetCode",
  input: { body: passwordResetVerifySchema },
  viewer: "optional",
  run: (services, _viewer, { body }) => verifyPasswordResetCode(codeServicesOf(services), body, codeNow(services)),
  present: (permission) => permission,
  response: z.strictObject({ token: z.string(), expires_in: z.number() }),
  failures: ["code_expired", "code_incorrect", "code_attempts_exceeded"],
});

export const setPasswordWithTokenOperation = defineOperation({
  name: "setPasswordWithToken",
  input: { body: passwordResetSetSchema },
  viewer: "optional",
  run: (services, _viewer, { body }) => setPasswordWithToken(codeServicesOf(services), body, codeNow(services)),
  present: () => null,
  response: noContent,
  failures: ["reset_token_expired"],
});
