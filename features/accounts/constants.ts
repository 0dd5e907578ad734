export const userTypes = ["Registered users", "Official users", "VIP users", "SVIP users"] as const;
export type UserType = (typeof userTypes)[number];
export const genders = ["male", "female", "secret"] as const;
export type Gender = (typeof genders)[number];

/** Site-wide roles: moderators (and admins) review every report in `/admin/reports`. */
export const siteRoles = ["none", "moderator", "admin"] as const;
export type SiteRole = (typeof siteRoles)[number];
