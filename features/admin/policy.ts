import type { SiteRole } from "../accounts/constants.ts";

/*
 * The site-role policy: which staff role may do what in the admin area. Pure; every admin page
 * and API route asks it on the server (features/admin/staff.ts), and the admin menu shows only
 * the sections the viewer's role may open.
 */

export const staffActions = [
  "view_dashboard",
  "moderate_reports",
  "view_users",
  "suspend_users",
  "set_user_type",
  "set_site_role",
  "see_contact_details",
  "view_audit",
  "manage_jobs",
  "manage_ledger",
  "moderate_content",
  "manage_announcements",
  "review_links",
  "review_feedback",
  "review_trade_disputes",
  "manage_cashouts",
  "manage_missions",
  "review_monetization",
  "manage_trust",
] as const;
export type StaffAction = (typeof staffActions)[number];

/** Moderators look after people and content; money, jobs, roles and types are for admins. */
const moderatorActions: ReadonlySet<StaffAction> = new Set([
  "view_dashboard",
  "moderate_reports",
  "view_users",
  "suspend_users",
  "view_audit",
  "moderate_content",
  "manage_announcements",
  "review_links",
  "review_trade_disputes",
]);

export type StaffRole = Exclude<SiteRole, "none">;

export function isStaffRole(role: SiteRole | null | undefined): role is StaffRole {
  return role === "moderator" || role === "admin";
}

export function staffCan(role: SiteRole | null | undefined, action: StaffAction): boolean {
  if (role === "admin") return true;
  if (role === "moderator") return moderatorActions.has(action);
  return false;
}

export interface AdminSection {
  /** Its menu label is `admin:menu.<key>`. */
  key: string;
  path: string;
  action: StaffAction;
}

/**
 * The admin area's sections, in menu order, each with the action that opens it. A new queue
 * (cashouts, campaigns, missions) appends its entry here and its label to `admin:menu`.
 */
export const adminSections: readonly AdminSection[] = [
  { key: "dashboard", path: "/admin", action: "view_dashboard" },
  { key: "reports", path: "/admin/reports", action: "moderate_reports" },
  { key: "content", path: "/admin/content", action: "moderate_content" },
  { key: "users", path: "/admin/users", action: "view_users" },
  { key: "announcements", path: "/admin/announcements", action: "manage_announcements" },
  { key: "links", path: "/admin/links", action: "review_links" },
  { key: "feedback", path: "/admin/feedback", action: "review_feedback" },
  { key: "audit", path: "/admin/audit", action: "view_audit" },
  { key: "jobs", path: "/admin/jobs", action: "manage_jobs" },
  { key: "ledger", path: "/admin/ledger", action: "manage_ledger" },
  { key: "disputes", path: "/admin/disputes", action: "review_trade_disputes" },
  { key: "cashouts", path: "/admin/cashouts", action: "manage_cashouts" },
  { key: "monetization", path: "/admin/monetization", action: "review_monetization" },
  { key: "ads", path: "/admin/ads", action: "manage_ledger" },
  { key: "missions", path: "/admin/missions", action: "manage_missions" },
  { key: "trust", path: "/admin/trust", action: "manage_trust" },
];

export function visibleSections(role: SiteRole | null | undefined) {
  return adminSections.filter((section) => staffCan(role, section.action));
}
