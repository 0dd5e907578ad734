import { and, eq, inArray } from "drizzle-orm";
import { favorites } from "../../server/db/schema/index.ts";
import { registerSubjectDependent } from "../subjects/registry.ts";

/** A deleted subject leaves every favourites folder in its deletion's transaction. */
registerSubjectDependent("favorites", async (tx, type, ids) => {
  await tx.db.delete(favorites).where(and(eq(favorites.subjectType, type), inArray(favorites.subjectId, ids)));
});
