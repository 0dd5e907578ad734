import { z } from "zod";
import { deviceCookie, deviceCookieName, isDeviceId, newDeviceId, rememberDevice } from "../trust/devices.ts";
import { defineOperation, noContent, type OperationServices } from "../../server/lib/operation.ts";
import {
  createCsrfToken,
  csrfCookie,
  csrfCookieName,
  isValidCsrfToken,
  sessionCookieName,
  signedInCookies,
  signedOutCookies,
} from "./cookies.server.ts";
import { anonymousUser, authAnonymousCode, authSuccessCode, presentCurrentUser } from "./presenter.ts";
import { loginSchema, registerSchema } from "./schema.ts";
import { findSessionUser, logIn, logOut, registerUser, type SignedIn } from "./service.ts";
import { logInWithCode } from "../verification/login-code.ts";
import "./settings.ts";

/*
 * Accounts: the CSRF token, sign-up, sign-in, sign-out and "who am I". The session lives in
 * cookies the operations set through `services.answer` (the API's answer or the page's redirect).
 */

/** The signed-in user as every sign-in and `LoginAuth` answer it (`code` 100; 0 and an empty user for visitors). */
export const currentUserAnswer = z.strictObject({
  code: z.number(),
  user_id: z.number(),
  user_type: z.string(),
  avatar: z.string(),
  avatar_small: z.string(),
  username: z.string(),
  nickname: z.string(),
  email: z.string(),
  date: z.string(),
  sex: z.string(),
  self_description: z.string(),
  intelligence_score: z.number(),
  gold: z.number(),
  sinecoin: z.number(),
  school: z.string(),
  profession: z.string(),
  Hogwarts_school: z.string(),
  sinecoin_total_profit: z.number(),
  sinecoin_total_cashout: z.number(),
  cashoutable_sinecoin_profit: z.number(),
});

/** Who is signing in, as the sign-in services record it. */
export const clientInfoOf = (services: OperationServices) => ({ ip: services.client.address, userAgent: services.client.userAgent });

/**
 * Every sign-in answers with the session cookie and a CSRF token bound to the new session (the one
 * the client had before no longer works).
 */
export async function startSession(
  services: OperationServices,
  session: Pick<SignedIn, "token" | "persistent"> & { user: { id: number } },
): Promise<void> {
  services.answer.setCookie(
    ...signedInCookies(services.settings.sessionSecret, session.token, { persistent: session.persistent, secure: services.client.secure }),
  );
  // The device cookie (features/trust/devices.ts): issued once, remembered with every account that signs in through it.
  const existing = services.cookie(deviceCookieName);
  const device = isDeviceId(existing) ? existing : newDeviceId();
  if (device !== existing) services.answer.setCookie(deviceCookie(device, services.client.secure));
  await rememberDevice(services.db, session.user.id, device);
}

/** `{ code: 100, …current user }`, what every sign-in answers. */
export const presentSignedIn = (signedIn: Pick<SignedIn, "user">) => ({ code: authSuccessCode, ...presentCurrentUser(signedIn.user) });

export const csrfTokenOperation = defineOperation({
  name: "getCsrfToken",
  input: {},
  viewer: "optional",
  writes: false,
  run: async (services) => {
    const { sessionSecret } = services.settings;
    const existing = services.cookie(csrfCookieName);
    const session = services.cookie(sessionCookieName);
    const token = isValidCsrfToken(sessionSecret, existing, session) ? existing : createCsrfToken(sessionSecret, session);
    services.answer.setCookie(csrfCookie(token, services.client.secure));
    return token;
  },
  present: (token) => ({ csrftoken: token }),
  response: z.strictObject({ csrftoken: z.string() }),
  failures: [],
});

export const registerOperation = defineOperation({
  name: "register",
  input: { body: registerSchema },
  viewer: "optional",
  run: async (services, _viewer, { body }) => {
    const { captcha, signupsPerHour } = services.settings;
    const signedIn = await registerUser({ db: services.db }, body, clientInfoOf(services), {
      captcha,
      signupsPerHour,
      replacing: services.cookie(sessionCookieName),
    });
    await startSession(services, signedIn);
    return signedIn;
  },
  present: presentSignedIn,
  response: currentUserAnswer,
  failures: ["captcha_required", "captcha_failed", "username_exists", "email_exists", "username_email_exist"],
});

export const logInOperation = defineOperation({
  name: "logIn",
  input: { body: loginSchema },
  viewer: "optional",
  run: async (services, _viewer, { body }) => {
    const { login_code: loginCode } = body;
    const { sessionSecret, captcha } = services.settings;
    // A code sent to the account (for people who cannot solve the puzzle) stands in for the puzzle.
    const signedIn = loginCode
      ? await logInWithCode(
          { db: services.db, secret: sessionSecret },
          { ...body, login_code: loginCode },
          { ...clientInfoOf(services), locale: services.locale },
        )
      : await logIn(services.db, body, clientInfoOf(services), { captcha, replacing: services.cookie(sessionCookieName) });
    await startSession(services, signedIn);
    return signedIn;
  },
  present: presentSignedIn,
  response: currentUserAnswer,
  failures: [
    "captcha_required",
    "captcha_failed",
    "invalid_credentials",
    "too_many_attempts",
    "code_expired",
    "code_incorrect",
    "code_attempts_exceeded",
    "bad_request",
  ],
});

export const logOutOperation = defineOperation({
  name: "logOut",
  input: { body: z.strictObject({}).nullish() },
  viewer: "optional",
  // Signing out is allowed to everyone, a suspended account too.
  writes: false,
  run: async (services) => {
    await logOut(services.db, services.cookie(sessionCookieName));
    services.answer.setCookie(...signedOutCookies(services.settings.sessionSecret, services.client.secure));
  },
  present: () => null,
  response: noContent,
  failures: [],
});

export const loginAuthOperation = defineOperation({
  name: "loginAuth",
  input: {},
  viewer: "optional",
  run: (services) => findSessionUser(services.db, services.cookie(sessionCookieName)),
  present: (user) => (user ? { code: authSuccessCode, ...presentCurrentUser(user) } : { code: authAnonymousCode, ...anonymousUser }),
  response: currentUserAnswer,
  failures: [],
});
