import { eq, sql, type SQL } from "drizzle-orm";
import { users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { userTag } from "../../server/lib/cache-tags.ts";
import { registerSubject } from "../subjects/registry.ts";
import { assertNotHidden } from "../reports/visibility.ts";
import { userSearch } from "./search.ts";

registerSubject({
  type: "user",
  // A user is their own author.
  authorSql: (id) => id,
  interactions: { reactions: true, favorites: true, shares: true, reports: true },
  search: userSearch,
  async load(db, viewer, id) {
    const [row] = await db
      .select({ username: users.username, nickname: users.nickname, hiddenAt: users.hiddenAt })
      .from(users)
      .where(eq(users.id, id))
      .limit(1);
    if (!row) throw new AppError("not_found");
    await assertNotHidden(db, viewer, { hiddenAt: row.hiddenAt, authorId: id, circleId: null });
    return {
      type: "user",
      id,
      authorId: id,
      access: null,
      title: row.nickname || row.username,
      path: `/profile/${encodeURIComponent(row.username)}`,
      tags: { content: [userTag(id)], counts: [userTag(id)], comments: [userTag(id)] },
      editedAt: null,
      hiddenAt: row.hiddenAt,
    };
  },
  async setHidden(tx, id, hiddenAt) {
    await tx.db.update(users).set({ hiddenAt }).where(eq(users.id, id));
    return [userTag(id)];
  },
  referencesAttachment: (fileId: SQL) =>
    sql`exists (select 1 from users u where u.avatar = '/attach/' || ${fileId} or u.avatar_small = '/attach/' || ${fileId})`,
});
