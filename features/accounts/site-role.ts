import { eq } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { users } from "../../server/db/schema/index.ts";
import type { SiteRole } from "./constants.ts";

/**
 * The user's site role (`none`, `moderator`, `admin`), read where a staff page or operation needs
 * it: the viewer carries no role, since staff reads are rare and a changed role must act at once.
 */
export async function loadSiteRole(db: Executor, userId: number): Promise<SiteRole> {
  const [row] = await db.select({ role: users.siteRole }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.role ?? "none";
}
