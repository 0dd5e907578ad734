import type { Viewer } from "../accounts/viewer.ts";
import type { circleRoles, circleVisibilities } from "../../server/db/schema/circles.ts";

export type CircleRole = (typeof circleRoles)[number];
export type CircleVisibility = (typeof circleVisibilities)[number];

/** Higher outranks lower; founder is the top and can never be demoted or removed. */
export const roleRank: Record<CircleRole, number> = { member: 1, master: 2, admin: 3, super_admin: 4, founder: 5 };

/**
 * What the policy needs to know about one circle for one viewer: the circle's own facts and the
 * viewer's standing in it and along its chain of ancestors (loaded by `loadCircleAccess`).
 */
export interface CircleAccess {
  circle: { id: number; parentId: number | null; visibility: CircleVisibility };
  /** The viewer's role in this circle, or null when not a member (always null for visitors). */
  role: CircleRole | null;
  /** The viewer is a member of the parent circle. */
  parentMember: boolean;
  /** The parent circle is visible to the viewer (true for the root). */
  parentVisible: boolean;
}

export type CircleAction =
  /** See that the circle exists: listed in the tree, its page answers (else 404, never 403). */
  | "view"
  /** Read the circle's writings, posts, questions and entries. */
  | "read_content"
  /** Publish writings, posts, questions in it. */
  | "write"
  | "join"
  | "leave"
  /** Hide or delete other people's content in it. */
  | "moderate"
  /** Pin items to the top of its page and unpin them (moderators, administrators, the founder). */
  | "pin"
  /** Create a sub-circle under it. */
  | "create_subcircle"
  /** Settings pages: name, description, logo, visibility, parent, languages. */
  | "edit_settings"
  | "manage_members"
  | "manage_categories"
  | "delete";

export const circleActions = [
  "view",
  "read_content",
  "write",
  "join",
  "leave",
  "moderate",
  "pin",
  "create_subcircle",
  "edit_settings",
  "manage_members",
  "manage_categories",
  "delete",
] as const satisfies readonly CircleAction[];

/**
 * Visibility (every read of a circle and of its content asks this — pages, API, search, sitemap,
 * feeds, counts):
 * - `public`: the circle and its content are visible to everyone who can see its parent.
 * - `circle` ("only within the circle"): the circle is listed wherever its parent is visible;
 *   its content is readable by members only.
 * - `parent` ("visible within the parent circle"): the circle and its content are visible to
 *   members of the parent circle; nobody else sees that it exists.
 * - `members` ("only visible to members"): visible to its members only; listed to nobody else.
 * A circle's members always see it and its content, whatever its parent's visibility; anybody
 * else sees a circle only if they can see its parent too.
 */
export function canViewCircle(access: CircleAccess): boolean {
  if (access.role) return true;
  if (!access.parentVisible) return false;
  switch (access.circle.visibility) {
    case "public":
    case "circle":
      return true;
    case "parent":
      return access.parentMember;
    case "members":
      return false;
  }
}

export function canReadCircleContent(access: CircleAccess): boolean {
  if (access.role) return true;
  if (!canViewCircle(access)) return false;
  return access.circle.visibility === "public" || (access.circle.visibility === "parent" && access.parentMember);
}

const atLeast = (access: CircleAccess, role: CircleRole) => access.role !== null && roleRank[access.role] >= roleRank[role];

export function can(actor: Viewer | null, action: CircleAction, access: CircleAccess): boolean {
  switch (action) {
    case "view":
      return canViewCircle(access);
    case "read_content":
      return canReadCircleContent(access);
    case "write":
      // Public circles take anyone's writing (like Juejin); the others only their members'.
      return actor !== null && canReadCircleContent(access) && (access.role !== null || access.circle.visibility === "public");
    case "join":
      return actor !== null && access.role === null && canViewCircle(access);
    case "leave":
      return actor !== null && access.role !== null && access.role !== "founder";
    case "moderate":
    case "pin":
      return actor !== null && atLeast(access, "master");
    case "create_subcircle":
      // Anyone signed in may start a circle under the global village; deeper down, administrators.
      return actor !== null && (access.circle.parentId === null ? true : atLeast(access, "admin"));
    case "edit_settings":
    case "manage_members":
    case "manage_categories":
      return actor !== null && atLeast(access, "admin");
    case "delete":
      return actor !== null && atLeast(access, "super_admin");
  }
}

/**
 * Setting another member's role: only managers; never the founder's role (nobody demotes or
 * replaces the founder, and "founder" is never given); never anyone at or above one's own rank;
 * never a role above one's own.
 */
export function canSetRole(
  actor: Viewer | null,
  access: CircleAccess,
  target: { userId: number; role: CircleRole },
  newRole: CircleRole,
): boolean {
  if (!actor || !can(actor, "manage_members", access) || target.userId === actor.id) return false;
  const own = roleRank[access.role!];
  if (target.role === "founder" || newRole === "founder") return false;
  return roleRank[target.role] < own && roleRank[newRole] <= own;
}

/** Removing a member: like demoting them to nothing. */
export function canRemoveMember(actor: Viewer | null, access: CircleAccess, target: { userId: number; role: CircleRole }): boolean {
  if (!actor || !can(actor, "manage_members", access) || target.userId === actor.id) return false;
  return target.role !== "founder" && roleRank[target.role] < roleRank[access.role!];
}

/** Every action's answer for one viewer and circle: what loaders and API responses hand to the page (`can`). */
export function circlePermissions(actor: Viewer | null, access: CircleAccess): Record<CircleAction, boolean> {
  return Object.fromEntries(circleActions.map((action) => [action, can(actor, action, access)])) as Record<CircleAction, boolean>;
}

/** The roles `actor` may give this member (their current role included when it may be kept). */
export function assignableRolesFor(actor: Viewer | null, access: CircleAccess, target: { userId: number; role: CircleRole }): CircleRole[] {
  return (["member", "master", "admin", "super_admin"] as const).filter((role) => canSetRole(actor, access, target, role));
}
