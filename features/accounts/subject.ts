import { eq, sql, type SQL } from "drizzle-orm";
import { users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { userTag } from "../../server/lib/cache-tags.ts";
import { registerSubject } from "../subjects/registry.ts";

registerSubject({
  type: "user",
  async load(db, _viewer, id) {
    const [row] = await db.select({ username: users.username, nickname: users.nickname }).from(users).where(eq(users.id, id)).limit(1);
    if (!row) throw new AppError("not_found");
    return {
      type: "user",
      id,
      authorId: id,
      access: null,
      title: row.nickname || row.username,
      path: `/profile/${encodeURIComponent(row.username)}`,
      tags: { content: [userTag(id)], counts: [userTag(id)], comments: [userTag(id)] },
    };
  },
  referencesAttachment: (fileId: SQL) =>
    sql`exists (select 1 from users u where u.avatar = '/attach/' || ${fileId} or u.avatar_small = '/attach/' || ${fileId})`,
});
