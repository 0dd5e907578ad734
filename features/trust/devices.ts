import { createHash, randomBytes } from "node:crypto";
import { stringifySetCookie } from "cookie";
import { sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { deviceSightings } from "../../server/db/schema/index.ts";

/*
 * Device cookies: a random id the browser keeps for two years, issued at the first sign-in or
 * registration and remembered (hashed) with every account that signs in through it. Two accounts
 * sharing one is evidence for the ring job (features/trust/rings.ts) and makes their actions on
 * each other "linked" (features/trust/verdicts.ts).
 */

export const deviceCookieName = "circles_device";
const deviceCookieSeconds = 2 * 365 * 24 * 3600;

export function isDeviceId(value: string | undefined): value is string {
  return typeof value === "string" && /^[A-Za-z0-9_-]{22,64}$/.test(value);
}

export function newDeviceId(): string {
  return randomBytes(18).toString("base64url");
}

export function deviceCookie(id: string, secure: boolean): string {
  return stringifySetCookie({
    name: deviceCookieName,
    value: id,
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: deviceCookieSeconds,
  });
}

export function hashDevice(id: string): string {
  return createHash("sha256").update(id).digest("hex");
}

/** Records that `userId` signed in (or registered) from the device `id`. */
export async function rememberDevice(db: Executor, userId: number, id: string): Promise<void> {
  await db
    .insert(deviceSightings)
    .values({ userId, deviceHash: hashDevice(id) })
    .onConflictDoUpdate({ target: [deviceSightings.userId, deviceSightings.deviceHash], set: { lastSeenAt: sql`now()` } });
}
