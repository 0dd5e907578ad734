import { createHash, randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { writingViews, writings } from "../../server/db/schema/index.ts";
import { shanghaiDay } from "../../common/locale.ts";

/** How a view is keyed: the user, or a hash of the visitor cookie (the raw cookie is never stored). */
export function visitorKey(viewer: { id: number } | null, visitorCookie: string | undefined): string | null {
  if (viewer) return `u:${viewer.id}`;
  if (!visitorCookie) return null;
  return `v:${createHash("sha256").update(visitorCookie).digest("base64url").slice(0, 32)}`;
}

/** The anonymous visitor's cookie (a random id; only its hash is stored). */
export const visitorCookieName = "vid";

/** The 1×1 transparent GIF the view beacons answer. */
export const beaconPixel = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

/**
 * The view beacons' visitor key (writings, encyclopedia entries): the user, or the visitor
 * cookie, issued here (365 days) when missing or malformed.
 */
export function beaconVisitor(request: FastifyRequest, reply: FastifyReply, viewer: { id: number } | null): string | null {
  let cookie = request.cookies[visitorCookieName];
  if (!viewer && (!cookie || !/^[A-Za-z0-9_-]{16,64}$/.test(cookie))) {
    cookie = randomBytes(18).toString("base64url");
    reply.setCookie(visitorCookieName, cookie, {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      maxAge: 365 * 24 * 3600,
      secure: request.protocol === "https",
    });
  }
  return visitorKey(viewer, cookie);
}

/**
 * Counts a view once per visitor and Asia/Shanghai day: the row's primary key makes a reload, or
 * two at once, one row, and only the insert that made it raises the counter. Views are counted,
 * not recorded as events (one a read would flood the event table).
 */
export async function recordView(db: Database, writingId: number, visitor: string, now: Date = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(writingViews)
      .values({ writingId, visitor, day: shanghaiDay(now) })
      .onConflictDoNothing()
      .returning({ writingId: writingViews.writingId });
    if (inserted.length === 0) return false;
    await tx
      .update(writings)
      .set({ views: sql`${writings.views} + 1` })
      .where(eq(writings.id, writingId));
    return true;
  });
}
