import { and, asc, count, desc, eq, ilike, inArray, or } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { circleMembers, users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { authorize } from "../../common/policy.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { membershipTag, requireCircle } from "./access.server.ts";
import { assignableRolesFor, can, canRemoveMember, canSetRole, type CircleAccess, type CircleRole } from "./policy.ts";
import { circleRoleOrder } from "./service.ts";
import { emit } from "../events/bus.ts";
import { circleTag, circlesTag, userTag } from "../../server/lib/cache-tags.ts";

/** Member lists are paged by this many. */
export const membersPageSize = 20;

/** Joining adds the viewer as a member; already being one changes nothing. Returns the viewer's role. */
export async function joinCircle(options: ServiceOptions, actor: Viewer, circleId: number): Promise<{ role: CircleRole }> {
  return inTransaction(options, async (tx) => {
    const access = await requireCircle(tx.db, actor, circleId, "view", { signedIn: true });
    if (access.role) return { role: access.role };
    authorize(actor, can(actor, "join", access));
    const inserted = await tx.db
      .insert(circleMembers)
      .values({ circleId, userId: actor.id, role: "member" })
      .onConflictDoNothing()
      .returning({ role: circleMembers.role });
    if (inserted.length > 0) {
      await emit(tx, { actorId: actor.id, verb: "circle.joined", subjectId: circleId, data: {} });
      tx.invalidate(circleTag(circleId), circlesTag, membershipTag(actor.id), userTag(actor.id));
    }
    return { role: "member" };
  });
}

/** Leaving removes the viewer's membership; not being a member changes nothing. The founder stays. */
export async function leaveCircle(options: ServiceOptions, actor: Viewer, circleId: number): Promise<void> {
  await inTransaction(options, async (tx) => {
    const access = await requireCircle(tx.db, actor, circleId, "view", { signedIn: true });
    if (!access.role) return;
    if (access.role === "founder") throw new AppError("founder_cannot_leave");
    await tx.db.delete(circleMembers).where(and(eq(circleMembers.circleId, circleId), eq(circleMembers.userId, actor.id)));
    await emit(tx, {
      actorId: actor.id,
      verb: "circle.left",
      subjectId: circleId,
      data: { role: access.role },
    });
    tx.invalidate(circleTag(circleId), circlesTag, membershipTag(actor.id));
  });
}

export interface CircleMemberView {
  userId: number;
  username: string;
  nickname: string;
  avatar: string | null;
  role: CircleRole;
  joinedAt: string;
  /** What the viewer may do to this member. */
  can: { setRoles: CircleRole[]; remove: boolean };
}

export interface MemberList {
  members: CircleMemberView[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * A page of members, highest role first, then by joining time; `q` matches the username or the
 * nickname. Readers of the circle's content may list them (the guard is the caller's).
 */
export async function listMembers(
  db: Executor,
  viewer: Viewer | null,
  access: CircleAccess,
  query: { q?: string; role?: CircleRole; page: number },
): Promise<MemberList> {
  const circleId = access.circle.id;
  const pattern = query.q ? `%${query.q.replace(/[\\%_]/g, (character) => `\\${character}`)}%` : undefined;
  const where = and(
    eq(circleMembers.circleId, circleId),
    query.role ? eq(circleMembers.role, query.role) : undefined,
    pattern ? or(ilike(users.username, pattern), ilike(users.nickname, pattern)) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({
        userId: users.id,
        username: users.username,
        nickname: users.nickname,
        avatar: users.avatar,
        role: circleMembers.role,
        joinedAt: circleMembers.joinedAt,
      })
      .from(circleMembers)
      .innerJoin(users, eq(users.id, circleMembers.userId))
      .where(where)
      .orderBy(desc(circleRoleOrder), asc(circleMembers.joinedAt), asc(users.id))
      .limit(membersPageSize)
      .offset((query.page - 1) * membersPageSize),
    db.select({ total: count() }).from(circleMembers).innerJoin(users, eq(users.id, circleMembers.userId)).where(where),
  ]);
  return {
    members: rows.map((row) => ({
      ...row,
      joinedAt: row.joinedAt.toISOString(),
      can: { setRoles: assignableRolesFor(viewer, access, row), remove: canRemoveMember(viewer, access, row) },
    })),
    total: Number(total?.total ?? 0),
    page: query.page,
    pageSize: membersPageSize,
  };
}

async function membershipsOf(db: Executor, circleId: number, userIds: number[]) {
  return db
    .select({ userId: circleMembers.userId, role: circleMembers.role })
    .from(circleMembers)
    .where(and(eq(circleMembers.circleId, circleId), inArray(circleMembers.userId, userIds)))
    .for("update");
}

/**
 * Gives members a role, all or none: every one of them must be a member (else 404) and one the
 * viewer may give that role to (else 403). Nobody demotes the founder or anyone at or above their own rank.
 */
export async function setMemberRoles(
  options: ServiceOptions,
  actor: Viewer,
  circleId: number,
  userIds: number[],
  role: CircleRole,
): Promise<void> {
  const unique = [...new Set(userIds)];
  await inTransaction(options, async (tx) => {
    const access = await requireCircle(tx.db, actor, circleId, "manage_members", { signedIn: true });
    const targets = await membershipsOf(tx.db, circleId, unique);
    if (targets.length !== unique.length) throw new AppError("not_a_member");
    for (const target of targets) authorize(actor, canSetRole(actor, access, target, role));
    const changing = targets.filter((target) => target.role !== role);
    if (changing.length === 0) return;
    await tx.db
      .update(circleMembers)
      .set({ role })
      .where(
        and(
          eq(circleMembers.circleId, circleId),
          inArray(
            circleMembers.userId,
            changing.map((target) => target.userId),
          ),
        ),
      );
    for (const target of changing) {
      await emit(tx, {
        actorId: actor.id,
        verb: "circle.role_changed",
        subjectId: circleId,
        data: { userId: target.userId, from: target.role, to: role },
      });
    }
    tx.invalidate(circleTag(circleId), ...changing.map((target) => membershipTag(target.userId)));
  });
}

export async function countAdministrators(db: Executor, circleId: number): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(circleMembers)
    .where(and(eq(circleMembers.circleId, circleId), eq(circleMembers.role, "admin")));
  return Number(row?.total ?? 0);
}

/** Every administrator the viewer may demote becomes a member again (the members page's "remove all"). Returns how many. */
export async function removeAllAdministrators(options: ServiceOptions, actor: Viewer, circleId: number): Promise<number> {
  return inTransaction(options, async (tx) => {
    const access = await requireCircle(tx.db, actor, circleId, "manage_members", { signedIn: true });
    const admins = await tx.db
      .select({ userId: circleMembers.userId, role: circleMembers.role })
      .from(circleMembers)
      .where(and(eq(circleMembers.circleId, circleId), eq(circleMembers.role, "admin")));
    const demoted = admins.filter((admin) => canSetRole(actor, access, admin, "member"));
    if (demoted.length === 0) {
      authorize(actor, admins.length === 0);
      return 0;
    }
    await setMemberRoles(
      { db: options.db, tx },
      actor,
      circleId,
      demoted.map((admin) => admin.userId),
      "member",
    );
    return demoted.length;
  });
}

/** Removes a member below the viewer's rank (never the founder). */
export async function removeMember(options: ServiceOptions, actor: Viewer, circleId: number, userId: number): Promise<void> {
  await inTransaction(options, async (tx) => {
    const access = await requireCircle(tx.db, actor, circleId, "manage_members", { signedIn: true });
    const [target] = await membershipsOf(tx.db, circleId, [userId]);
    if (!target) throw new AppError("not_a_member");
    authorize(actor, canRemoveMember(actor, access, target));
    await tx.db.delete(circleMembers).where(and(eq(circleMembers.circleId, circleId), eq(circleMembers.userId, userId)));
    await emit(tx, {
      actorId: actor.id,
      verb: "circle.member_removed",
      subjectId: circleId,
      data: { userId, role: target.role },
    });
    tx.invalidate(circleTag(circleId), circlesTag, membershipTag(userId));
  });
}
