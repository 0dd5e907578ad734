/** Why a subject is reported (spec §5 flagging): shared by the tables, the schemas and the report form. */
export const reportReasons = ["spam", "harassment", "illegal", "infringement", "misinformation", "off_topic", "other"] as const;
export type ReportReason = (typeof reportReasons)[number];

/** A case is open until a moderator decides it. */
export const caseStatuses = ["open", "decided"] as const;
export type CaseStatus = (typeof caseStatuses)[number];

/** What a moderator may decide about a case. */
export const moderationActions = ["hide", "restore", "delete", "dismiss"] as const;
export type ModerationAction = (typeof moderationActions)[number];
