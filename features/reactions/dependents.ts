import { and, eq, inArray } from "drizzle-orm";
import { reactions, subjectCounts } from "../../server/db/schema/index.ts";
import { registerSubjectDependent } from "../subjects/registry.ts";

/** A deleted subject takes its reactions and counts with it, in its deletion's transaction. */
registerSubjectDependent("reactions", async (tx, type, ids) => {
  await tx.db.delete(reactions).where(and(eq(reactions.subjectType, type), inArray(reactions.subjectId, ids)));
  await tx.db.delete(subjectCounts).where(and(eq(subjectCounts.subjectType, type), inArray(subjectCounts.subjectId, ids)));
});
