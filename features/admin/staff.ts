import { eq } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { staffCan, type StaffAction, type StaffRole } from "./policy.ts";

/** A staff member as the admin area's services know them: the role read now, never from the session cache. */
export interface Staff {
  id: number;
  username: string;
  role: StaffRole;
}

/**
 * The guard of every admin page and route: a visitor is 401, anyone whose site role may not do
 * `action` is 403 `forbidden`. The role is read from the users row on each call, so a revoked role
 * takes effect at once.
 */
export async function requireStaff(db: Executor, viewer: Pick<Viewer, "id"> | null, action: StaffAction): Promise<Staff> {
  if (!viewer) throw new AppError("not_authenticated");
  const [row] = await db.select({ username: users.username, role: users.siteRole }).from(users).where(eq(users.id, viewer.id)).limit(1);
  if (!row || !staffCan(row.role, action)) throw new AppError("forbidden");
  return { id: viewer.id, username: row.username, role: row.role as StaffRole };
}

/** Whether the staff member may also do `action` (a second, finer check inside one page). */
export function staffMay(staff: Staff, action: StaffAction): boolean {
  return staffCan(staff.role, action);
}
