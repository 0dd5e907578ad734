import { and, eq, inArray, sql } from "drizzle-orm";
import { subjectCounts } from "../../server/db/schema/index.ts";
import type { Transaction } from "../../server/lib/transactions.ts";
import { registerSubjectDependent, type LoadedSubject } from "./registry.ts";

/** The interaction counters every subject has (`subject_counts`), by field. */
export type SubjectCounter = "likeCount" | "dislikeCount" | "favoriteCount" | "shareCount" | "commentCount";

/**
 * Adds `delta` to one counter of a subject inside the caller's transaction, making its row (with
 * the subject's author, for received-like sums) on first use. Callers move a counter only when
 * their own row change landed, so the counts stay exact under concurrency.
 */
export async function bumpSubjectCounter(
  tx: Transaction,
  subject: Pick<LoadedSubject, "type" | "id" | "authorId">,
  counter: SubjectCounter,
  delta: 1 | -1,
): Promise<void> {
  await tx.db
    .insert(subjectCounts)
    .values({ subjectType: subject.type, subjectId: subject.id, authorId: subject.authorId, [counter]: Math.max(delta, 0) })
    .onConflictDoUpdate({
      target: [subjectCounts.subjectType, subjectCounts.subjectId],
      set: { [counter]: sql`greatest(${subjectCounts[counter]} + ${delta}, 0)` },
    });
}

/** A deleted subject's counters go with it, in its deletion's transaction. */
registerSubjectDependent("subject_counts", async (tx, type, ids) => {
  await tx.db.delete(subjectCounts).where(and(eq(subjectCounts.subjectType, type), inArray(subjectCounts.subjectId, ids)));
});
