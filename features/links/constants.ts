/** A friend link waits for review (`pending`) until a site moderator approves or rejects it; only approved links are listed. */
export const linkStatuses = ["pending", "approved", "rejected"] as const;
export type LinkStatus = (typeof linkStatuses)[number];

/** The language of the linked site: Chinese, English, or both. */
export const linkLanguages = ["zh-CN", "en", "both"] as const;
export type LinkLanguage = (typeof linkLanguages)[number];
