import { and, eq, inArray } from "drizzle-orm";
import { moderationCases } from "../../server/db/schema/index.ts";
import { registerSubjectDependent } from "../subjects/registry.ts";

/**
 * A deleted subject's open cases (and their reports) go with it, in its deletion's transaction;
 * decided cases stay as the moderators' history (they keep the title and path they were opened with).
 */
registerSubjectDependent("moderation_cases", async (tx, type, ids) => {
  await tx.db
    .delete(moderationCases)
    .where(and(eq(moderationCases.subjectType, type), inArray(moderationCases.subjectId, ids), eq(moderationCases.status, "open")));
});
