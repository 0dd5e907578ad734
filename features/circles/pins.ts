import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { z } from "zod";
import { circlePins, circles } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { circleTag } from "../../server/lib/cache-tags.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { emit } from "../events/bus.ts";
import { acceptsInteraction, loadSubject, registerSubjectDependent } from "../subjects/registry.ts";
import type { SubjectType } from "../subjects/types.ts";
import { requireCircle } from "./access.server.ts";

/** A kind moderators may pin: its subject registration accepts pins (`interactions.pins`); any other name is refused. */
export const pinnableTypeSchema = z.string().refine((type) => acceptsInteraction(type, "pins"));

/** A circle pins at most this many items; one more answers `too_many_pins`. */
export const maxPins = 5;

/** A pinned item as the viewer may see it (pins of what the viewer may not read are left out). */
export interface PinnedItem {
  type: SubjectType;
  id: number;
  title: string;
  /** Its page, without the /en prefix. */
  path: string;
  pinnedAt: string;
}

/** The circle's pinned items, the latest pinned first; what is gone or unreadable is skipped. */
export async function listPins(db: Executor, viewer: Viewer | null, circleId: number): Promise<PinnedItem[]> {
  const rows = await db
    .select()
    .from(circlePins)
    .where(eq(circlePins.circleId, circleId))
    .orderBy(desc(circlePins.pinnedAt), desc(circlePins.subjectId))
    .limit(maxPins);
  const items = await Promise.all(
    rows.map(async (row): Promise<PinnedItem | null> => {
      try {
        const subject = await loadSubject(db, viewer, row.subjectType, row.subjectId);
        if (subject.access?.circle.id !== circleId) return null;
        return { type: row.subjectType, id: row.subjectId, title: subject.title, path: subject.path, pinnedAt: row.pinnedAt.toISOString() };
      } catch (error) {
        if (error instanceof AppError) return null;
        throw error;
      }
    }),
  );
  return items.filter((item) => item !== null);
}

/**
 * Pins an item of this circle (of a kind that accepts pins) to the top of its page (moderators and above). Pinning
 * what is already pinned changes nothing; a sixth pin is refused (`too_many_pins`). Pins of one
 * circle are serialized on its row, so concurrent pins never exceed the limit.
 */
export async function pinSubject(options: ServiceOptions, actor: Viewer, circleId: number, type: string, id: number): Promise<void> {
  if (!acceptsInteraction(type, "pins")) throw new AppError("not_found");
  await inTransaction(options, async (tx) => {
    await requireCircle(tx.db, actor, circleId, "pin", { signedIn: true });
    const subject = await loadSubject(tx.db, actor, type, id);
    // Only the circle's own content: anything else answers like an unknown id.
    if (subject.access?.circle.id !== circleId) throw new AppError("not_found");
    await tx.db.select({ id: circles.id }).from(circles).where(eq(circles.id, circleId)).for("update");
    const where = and(eq(circlePins.circleId, circleId), eq(circlePins.subjectType, type), eq(circlePins.subjectId, id));
    if ((await tx.db.$count(circlePins, where)) > 0) return;
    if ((await tx.db.$count(circlePins, eq(circlePins.circleId, circleId))) >= maxPins) throw new AppError("too_many_pins");
    await tx.db.insert(circlePins).values({ circleId, subjectType: type, subjectId: id, pinnedBy: actor.id });
    await emit(tx, { actorId: actor.id, verb: "circle.pinned", subjectId: circleId, data: { type, id } });
    tx.invalidate(circleTag(circleId));
  });
}

/** Unpins an item (moderators and above); unpinning what is not pinned changes nothing. */
export async function unpinSubject(options: ServiceOptions, actor: Viewer, circleId: number, type: string, id: number): Promise<void> {
  if (!acceptsInteraction(type, "pins")) throw new AppError("not_found");
  await inTransaction(options, async (tx) => {
    await requireCircle(tx.db, actor, circleId, "pin", { signedIn: true });
    const removed = await tx.db
      .delete(circlePins)
      .where(and(eq(circlePins.circleId, circleId), eq(circlePins.subjectType, type), eq(circlePins.subjectId, id)))
      .returning({ id: circlePins.subjectId });
    if (removed.length === 0) return;
    await emit(tx, { actorId: actor.id, verb: "circle.unpinned", subjectId: circleId, data: { type, id } });
    tx.invalidate(circleTag(circleId));
  });
}

/** A deleted item leaves no pin behind. */
registerSubjectDependent("circle pins", async (tx, type, ids) => {
  if (!acceptsInteraction(type, "pins")) return;
  await tx.db.delete(circlePins).where(and(sql`${circlePins.subjectType} = ${type}`, inArray(circlePins.subjectId, ids)));
});
