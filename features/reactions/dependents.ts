import { and, eq, inArray } from "drizzle-orm";
import { reactions } from "../../server/db/schema/index.ts";
import { registerSubjectDependent } from "../subjects/registry.ts";

/** A deleted subject takes its reactions with it, in its deletion's transaction (its counters: features/subjects/counters.ts). */
registerSubjectDependent("reactions", async (tx, type, ids) => {
  await tx.db.delete(reactions).where(and(eq(reactions.subjectType, type), inArray(reactions.subjectId, ids)));
});
