import { and, eq } from "drizzle-orm";
import type { Transaction } from "../../server/lib/transactions.ts";
import { comments, type commentSubjectTypes } from "../../server/db/schema/index.ts";

/**
 * Deletes every comment and reply on a subject, inside the subject's own deletion transaction
 * (comments have no foreign key to their subject, which may live in any of several tables). Kept
 * apart from the service so the subjects' services can call it without importing the comments'.
 */
export async function deleteCommentsOfSubject(
  tx: Transaction,
  subjectType: (typeof commentSubjectTypes)[number],
  subjectId: number,
): Promise<void> {
  await tx.db.delete(comments).where(and(eq(comments.subjectType, subjectType), eq(comments.subjectId, subjectId)));
}
