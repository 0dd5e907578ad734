import type { FastifyReply, FastifyRequest } from "fastify";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { writingViews, writings } from "../../server/db/schema/index.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { resolveVisitor, visitorCookieName } from "../../server/lib/visitor.ts";

export { visitorCookieName, visitorKey } from "../../server/lib/visitor.ts";

/** The 1×1 transparent GIF the view beacons answer. */
export const beaconPixel = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

/**
 * The view beacons' visitor key (writings, encyclopedia entries, questions): the user, or the
 * visitor cookie, issued here (365 days) when missing or malformed (`server/lib/visitor.ts`).
 */
export function beaconVisitor(request: FastifyRequest, reply: FastifyReply, viewer: { id: number } | null): string {
  const { key, issued } = resolveVisitor(viewer, request.cookies[visitorCookieName], request.protocol === "https");
  if (issued) reply.header("set-cookie", issued);
  return key;
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
