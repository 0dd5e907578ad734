import { eq, sql } from "drizzle-orm";
import { users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { forgetSessionsOf } from "./session-cache.server.ts";
import { siteRoles, userTypes, type SiteRole, type UserType } from "./constants.ts";
import { emit } from "../events/bus.ts";
import { userTag } from "../../server/lib/cache-tags.ts";
import { recordAudit } from "../admin/audit.ts";

/** Short names accepted by the admin command, beside the full names of spec section 3. */
const shortNames: Record<string, UserType> = {
  registered: "Registered users",
  official: "Official users",
  vip: "VIP users",
  svip: "SVIP users",
};

/** "vip", "VIP", "VIP users" → "VIP users"; null for anything else. */
export function parseUserType(value: string): UserType | null {
  const typed = value.trim().toLowerCase();
  return shortNames[typed] ?? userTypes.find((type) => type.toLowerCase() === typed) ?? null;
}

/**
 * An administrator's change of a user's type. The session cache of this process forgets the user at
 * once; other processes hold a cached viewer for at most the cache's 2 s. Pages showing the user are
 * invalidated (across processes through NOTIFY on a PostgreSQL server).
 */
export async function setUserType(
  options: ServiceOptions,
  username: string,
  userType: UserType,
  reason = "command line",
): Promise<{ id: number; previous: UserType }> {
  return inTransaction(options, async (tx) => {
    const [user] = await tx.db
      .select({ id: users.id, userType: users.userType })
      .from(users)
      .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
      .for("update");
    if (!user) throw new AppError("not_found");
    await tx.db.update(users).set({ userType }).where(eq(users.id, user.id));
    await emit(tx, {
      actorId: null,
      verb: "user.type_changed",
      subjectId: user.id,
      data: { from: user.userType, to: userType },
    });
    // The command line is this function's caller: its writes are audited like staff's (features/admin/audit.ts).
    await recordAudit(tx.db, "cli", {
      action: "user.set_type",
      target: `user:${user.id}`,
      before: { user_type: user.userType },
      after: { user_type: userType },
      reason,
    });
    tx.invalidate(userTag(user.id));
    tx.afterCommit(() => forgetSessionsOf(user.id));
    return { id: user.id, previous: user.userType };
  });
}

/** "moderator", "Moderator" → "moderator"; null for anything but a site role. */
export function parseSiteRole(value: string): SiteRole | null {
  const typed = value.trim().toLowerCase();
  return (siteRoles as readonly string[]).includes(typed) ? (typed as SiteRole) : null;
}

/**
 * An administrator's grant of a site role (`none`, `moderator`, `admin`): moderators and admins
 * review every report in `/admin/reports`. Read where needed (never held in the session cache).
 */
export async function setSiteRole(
  options: ServiceOptions,
  username: string,
  siteRole: SiteRole,
  reason = "command line",
): Promise<{ id: number; previous: SiteRole }> {
  return inTransaction(options, async (tx) => {
    const [user] = await tx.db
      .select({ id: users.id, siteRole: users.siteRole })
      .from(users)
      .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
      .for("update");
    if (!user) throw new AppError("not_found");
    await tx.db.update(users).set({ siteRole }).where(eq(users.id, user.id));
    await emit(tx, { actorId: null, verb: "user.site_role_changed", subjectId: user.id, data: { from: user.siteRole, to: siteRole } });
    await recordAudit(tx.db, "cli", {
      action: "user.set_site_role",
      target: `user:${user.id}`,
      before: { site_role: user.siteRole },
      after: { site_role: siteRole },
      reason,
    });
    tx.invalidate(userTag(user.id));
    return { id: user.id, previous: user.siteRole };
  });
}
