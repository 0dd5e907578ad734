import { and, asc, gt, inArray, isNull } from "drizzle-orm";
import { users } from "../../server/db/schema/index.ts";
import { plainText, reindexOn, type SearchMember } from "../search/registry.ts";

/** Users in the search index by nickname and username (never their private fields). */
export const userSearch: SearchMember = {
  tabOrder: 8,
  suggested: true,
  reindex: [reindexOn(["user.registered", "user.profile_updated"])],
  async documents(db, ids) {
    const rows = await db
      .select({
        id: users.id,
        username: users.username,
        nickname: users.nickname,
        signature: users.signature,
        createdAt: users.createdAt,
        score: users.intelligenceScore,
      })
      .from(users)
      .where(and(inArray(users.id, ids), isNull(users.hiddenAt)));
    return rows.map((row) => ({
      type: "user" as const,
      id: row.id,
      circleId: null,
      parentId: null,
      language: null,
      title: row.nickname || row.username,
      path: `/profile/${encodeURIComponent(row.username)}`,
      names: [row.username],
      relatedEntryIds: [],
      body: plainText(row.signature),
      authorId: row.id,
      publishedAt: row.createdAt,
      hotScore: Math.log1p(Math.max(row.score, 0)),
    }));
  },
  async ids(db, afterId, limit) {
    const rows = await db.select({ id: users.id }).from(users).where(gt(users.id, afterId)).orderBy(asc(users.id)).limit(limit);
    return rows.map((row) => row.id);
  },
};
