import { eq, sql, type SQL } from "drizzle-orm";
import { circles } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { circleTag, circlesTag } from "../../server/lib/cache-tags.ts";
import { registerSubject } from "../subjects/registry.ts";
import { loadCircleAccess } from "./access.server.ts";
import { canViewCircle } from "./policy.ts";
import { circleSearch } from "./search.ts";

registerSubject({
  type: "circle",
  interactions: { reactions: true, favorites: true, shares: true },
  search: circleSearch,
  async load(db, viewer, id) {
    const access = await loadCircleAccess(db, viewer, id);
    if (!access || !canViewCircle(access)) throw new AppError("not_found");
    const [row] = await db
      .select({ nameZh: circles.nameZh, nameEn: circles.nameEn, createdBy: circles.createdBy })
      .from(circles)
      .where(eq(circles.id, id))
      .limit(1);
    if (!row) throw new AppError("not_found");
    return {
      type: "circle",
      id,
      authorId: row.createdBy,
      access,
      title: row.nameZh || row.nameEn,
      path: `/circles/${id}`,
      tags: { content: [circleTag(id), circlesTag], counts: [circleTag(id)], comments: [circleTag(id)] },
    };
  },
  referencesAttachment: (fileId: SQL) => sql`exists (select 1 from circles c where c.logo = '/attach/' || ${fileId})`,
});
