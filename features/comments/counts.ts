import { and, count, eq, inArray, isNull } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { comments } from "../../server/db/schema/index.ts";

/** Comments (not deleted) per writing, for a list's cards; writings without comments are absent. */
export async function countWritingComments(db: Executor, writingIds: number[]): Promise<Map<number, number>> {
  if (writingIds.length === 0) return new Map();
  const rows = await db
    .select({ id: comments.subjectId, comments: count() })
    .from(comments)
    .where(
      and(
        eq(comments.subjectType, "writing"),
        inArray(comments.subjectId, writingIds),
        isNull(comments.deletedAt),
        isNull(comments.hiddenAt),
      ),
    )
    .groupBy(comments.subjectId);
  return new Map(rows.map((row) => [row.id, Number(row.comments)]));
}
