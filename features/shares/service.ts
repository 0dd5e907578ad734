import { and, eq } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { subjectCounts, subjectShares } from "../../server/db/schema/index.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { inTransaction } from "../../server/lib/transactions.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { emit } from "../events/bus.ts";
import { bumpSubjectCounter } from "../subjects/counters.ts";
import { acceptsInteraction, loadSubject } from "../subjects/registry.ts";
import { AppError } from "../../common/app-error.ts";

/**
 * Counts a share (the link copied or handed to the system's share sheet) once per visitor, subject
 * and Asia/Shanghai day: the row's primary key makes a repeat, or two at once, one row, and only
 * the insert that made it raises the counter and records `subject.shared`. Anyone who may read the
 * subject may share it, visitors too. Errors: `not_found`.
 */
export async function recordShare(
  db: Database,
  viewer: Viewer | null,
  visitor: string,
  type: string,
  id: number,
  now: Date = new Date(),
): Promise<{ shareCount: number }> {
  return inTransaction({ db }, async (tx) => {
    if (!acceptsInteraction(type, "shares")) throw new AppError("not_found");
    const subject = await loadSubject(tx.db, viewer, type, id);
    const [inserted] = await tx.db
      .insert(subjectShares)
      .values({ subjectType: subject.type, subjectId: subject.id, visitor, day: shanghaiDay(now) })
      .onConflictDoNothing()
      .returning({ visitor: subjectShares.visitor });
    if (inserted) {
      await bumpSubjectCounter(tx, subject, "shareCount", 1);
      await emit(tx, { verb: "subject.shared", actorId: viewer?.id ?? null, subjectType: subject.type, subjectId: subject.id, data: {} });
      tx.invalidate(...subject.tags.counts);
    }
    const [row] = await tx.db
      .select({ shareCount: subjectCounts.shareCount })
      .from(subjectCounts)
      .where(and(eq(subjectCounts.subjectType, subject.type), eq(subjectCounts.subjectId, subject.id)));
    return { shareCount: row?.shareCount ?? 0 };
  });
}
