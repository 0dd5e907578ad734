import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { stringifySetCookie } from "cookie";
import { hashToken, sessionDurations } from "./service.ts";

export const sessionCookieName = "sessionid";
export const csrfCookieName = "csrftoken";
export const csrfHeaderName = "x-csrftoken";
/** The hidden form field that carries the token on plain HTML form posts. */
export const csrfFieldName = "csrftoken";

/** Without "stay signed in" the cookie has no Max-Age, so it ends with the browser. */
export function sessionCookie(token: string, options: { persistent: boolean; secure: boolean }): string {
  return stringifySetCookie({
    name: sessionCookieName,
    value: token,
    httpOnly: true,
    sameSite: "lax",
    secure: options.secure,
    path: "/",
    maxAge: options.persistent ? sessionDurations.persistentSeconds : undefined,
  });
}

export function clearedSessionCookie(secure: boolean): string {
  return stringifySetCookie({ name: sessionCookieName, value: "", httpOnly: true, sameSite: "lax", secure, path: "/", maxAge: 0 });
}

/**
 * A signed double-submit token bound to the client's session: a random part plus its HMAC under the
 * server secret over that part and the session cookie's hash (nothing when signed out). Another
 * client's token (another session) does not verify, and signing in or out changes the session, so
 * the token must change with it (`signedInCookies`, `signedOutCookies`).
 */
export function createCsrfToken(secret: string, sessionToken: string | undefined): string {
  const nonce = randomBytes(18).toString("base64url");
  return `${nonce}.${sign(secret, nonce, sessionToken)}`;
}

export function isValidCsrfToken(secret: string, token: string | undefined, sessionToken: string | undefined): token is string {
  if (!token || token.length > 200) return false;
  const [nonce, signature, extra] = token.split(".");
  if (!nonce || !signature || extra !== undefined) return false;
  const expected = Buffer.from(sign(secret, nonce, sessionToken));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The submitted token must equal the cookie and carry a valid signature for this session. */
export function csrfMatches(
  secret: string,
  cookieToken: string | undefined,
  submitted: string | undefined | null,
  sessionToken: string | undefined,
): boolean {
  return isValidCsrfToken(secret, cookieToken, sessionToken) && submitted === cookieToken;
}

/** Set-Cookie values for a fresh sign-in: the session, and a CSRF token bound to it. */
export function signedInCookies(secret: string, token: string, options: { persistent: boolean; secure: boolean }): string[] {
  return [sessionCookie(token, options), csrfCookie(createCsrfToken(secret, token), options.secure)];
}

/** Set-Cookie values for signing out: the session cleared, and a CSRF token for a signed-out visitor. */
export function signedOutCookies(secret: string, secure: boolean): string[] {
  return [clearedSessionCookie(secure), csrfCookie(createCsrfToken(secret, undefined), secure)];
}

/** Readable by the page's script (it sends it back in X-CSRFToken), so not HttpOnly. */
export function csrfCookie(token: string, secure: boolean): string {
  return stringifySetCookie({ name: csrfCookieName, value: token, sameSite: "lax", secure, path: "/", maxAge: 365 * 24 * 60 * 60 });
}

function sign(secret: string, nonce: string, sessionToken: string | undefined): string {
  const session = sessionToken ? hashToken(sessionToken) : "";
  return createHmac("sha256", secret).update(`csrf:${nonce}:${session}`).digest("base64url");
}
