import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { stringifySetCookie } from "cookie";
import { sessionDurations } from "./service.ts";

export const sessionCookieName = "sessionid";
export const csrfCookieName = "csrftoken";
export const csrfHeaderName = "x-csrftoken";
/** The hidden form field that carries the token on plain HTML form posts. */
export const csrfFieldName = "csrftoken";

/** Without "stay signed in" the cookie has no Max-Age, so it ends with the browser. */
export function sessionCookie(token: string, options: { persistent: boolean; secure: boolean }): string {
  return stringifySetCookie({ name: sessionCookieName, value: token, 
    httpOnly: true,
    sameSite: "lax",
    secure: options.secure,
    path: "/",
    maxAge: options.persistent ? sessionDurations.persistentSeconds : undefined,
  });
}

export function clearedSessionCookie(secure: boolean): string {
  return stringifySetCookie({ name: sessionCookieName, value: "",  httpOnly: true, sameSite: "lax", secure, path: "/", maxAge: 0 });
}

/** A signed double-submit token: random part plus its HMAC under the session secret. */
export function createCsrfToken(secret: string): string {
  const nonce = randomBytes(18).toString("base64url");
  return `${nonce}.${sign(secret, nonce)}`;
}

export function isValidCsrfToken(secret: string, token: string | undefined): token is string {
  if (!token || token.length > 200) return false;
  const [nonce, signature, extra] = token.split(".");
  if (!nonce || !signature || extra !== undefined) return false;
  const expected = Buffer.from(sign(secret, nonce));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The submitted token must equal the cookie and carry a valid signature. */
export function csrfMatches(secret: string, cookieToken: string | undefined, submitted: string | undefined | null): boolean {
  return isValidCsrfToken(secret, cookieToken) && submitted === cookieToken;
}

/** Readable by the page's script (it sends it back in X-CSRFToken), so not HttpOnly. */
export function csrfCookie(token: string, secure: boolean): string {
  return stringifySetCookie({ name: csrfCookieName, value: token,  sameSite: "lax", secure, path: "/", maxAge: 365 * 24 * 60 * 60 });
}

function sign(secret: string, nonce: string): string {
  return createHmac("sha256", secret).update(`csrf:${nonce}`).digest("base64url");
}
