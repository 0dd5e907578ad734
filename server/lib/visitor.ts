import { createHash, randomBytes } from "node:crypto";
import { stringifySetCookie } from "cookie";

/**
 * Who a visit is counted for (views, shares: once per visitor and day): the signed-in user, or the
 * anonymous visitor's cookie, a random id issued on first need (365 days) of which only a hash is
 * ever stored. Used by the view beacons and by operations (`OperationServices.visitor`), so the
 * JSON routes and the page forms key a visitor the same way.
 */

/** The anonymous visitor's cookie (a random id; only its hash is stored). */
export const visitorCookieName = "vid";

const wellFormed = (cookie: string | undefined): cookie is string => typeof cookie === "string" && /^[A-Za-z0-9_-]{16,64}$/.test(cookie);

/** How a visit is keyed: the user, or a hash of the visitor cookie (the raw cookie is never stored). */
export function visitorKey(viewer: { id: number } | null, visitorCookie: string | undefined): string | null {
  if (viewer) return `u:${viewer.id}`;
  if (!visitorCookie) return null;
  return `v:${createHash("sha256").update(visitorCookie).digest("base64url").slice(0, 32)}`;
}

/** The visitor cookie's Set-Cookie header. */
export function visitorSetCookie(value: string, secure: boolean): string {
  return stringifySetCookie({
    name: visitorCookieName,
    value,
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    maxAge: 365 * 24 * 3600,
    secure,
  });
}

/**
 * The visitor's key from the request's visitor cookie; for an anonymous visitor without a usable
 * cookie a fresh one is made, and `issued` is the Set-Cookie header the answer must carry.
 */
export function resolveVisitor(
  viewer: { id: number } | null,
  cookie: string | undefined,
  secure: boolean,
): { key: string; issued: string | null } {
  if (viewer) return { key: visitorKey(viewer, undefined)!, issued: null };
  if (wellFormed(cookie)) return { key: visitorKey(null, cookie)!, issued: null };
  const fresh = randomBytes(18).toString("base64url");
  return { key: visitorKey(null, fresh)!, issued: visitorSetCookie(fresh, secure) };
}
