/**
 * The one catalogue of cache tags. A page names what it shows with these (`tagPage`), remembered
 * reads store them beside their values (`taggedMemory`, `keyedMemory`), and a committed write
 * names what it changed (`tx.invalidate`). Never build a tag string anywhere else.
 *
 * A subject's tags are split by what changes, so a write drops only what it made stale:
 * - `content`: what it says (title, body, author card, categories, versions): edits and deletions;
 * - `counts`: its counters (views, comments, likes, favourites): reactions and comments;
 * - `comments`: its comment thread: comments, replies and their deletions.
 * A page that shows a subject carries all three; the remembered reading content carries only
 * `content`; the remembered comment thread only `comments` (and its commenters' `user` tags).
 * Per-viewer state (memberships, followees, unread counters) lives in `keyedMemory`s whose tags
 * are `<memory>:<userId>` (`membershipTag`, `followeesTag`, `unreadTag`).
 */

/** Site-wide lists: the home feeds, the circle tree pages, the sitemap. */
export const homeTag = "home";
export const circlesTag = "circles";
export const sitemapTag = "sitemap";
/** The moderation queues (signed-in pages, never cached; remembered reads of cases would carry it). */
export const moderationTag = "moderation";

/** The approved friend links (`/link`, anonymous-cached). */
export const friendLinksTag = "friend-links";
/** The school zone (`/school` and each school's page): users' schools and Hogwarts houses. */
export const schoolsTag = "schools";

/** Site-wide announcements: the list and every user's announcement counter (wakes every live stream). */
export const announcementsTag = "announcements";

/** A private message to or from the user (wakes their live streams). */
export const chatTag = (userId: number): string => `chat:${userId}`;

/** The reader read the sender's private messages (the sender's read receipts). */
/** `blockerId` blocked or unblocked `blockedId`: the blocked user's open streams tell their thread at once. */
export const chatBlockTag = (blockerId: number, blockedId: number): string => `chat-block:${blockerId}:${blockedId}`;
export const chatReadTag = (senderId: number, readerId: number): string => `chat-read:${senderId}:${readerId}`;

/** A circle's pages (its own and its descendants', which carry their lineage). */
export const circleTag = (id: number): string => `circle:${id}`;

/** A user's public face: profile page, author cards, comment author names. */
export const userTag = (id: number): string => `user:${id}`;

/** The badge and avatar frame a user wears (shop items): their author cards on cached reading pages carry it. */
export const adornmentsTag = (id: number): string => `user:${id}:adornments`;

/** What a subject says. Kinds with their own pages use their type name: `writing:7`, `book:3`, `entry:9`. */
export const contentTag = (type: string, id: number): string => `${type}:${id}`;

/** A subject's counters (views, comments, likes…). */
export const countsTag = (type: string, id: number): string => `${type}:${id}:counts`;

/** A subject's comment thread. */
export const commentsTag = (type: string, id: number): string => `${type}:${id}:comments`;

/** Every tag a page showing this subject carries. */
export function subjectPageTags(type: string, id: number): string[] {
  return [contentTag(type, id), countsTag(type, id), commentsTag(type, id)];
}

/** `circleTag` for each distinct id given (nulls skipped). */
export function circleTags(...ids: (number | null | undefined)[]): string[] {
  return [...new Set(ids.filter((id): id is number => typeof id === "number"))].map(circleTag);
}

/** `userTag` for each distinct id given. */
export function userTags(ids: Iterable<number>): string[] {
  return [...new Set(ids)].map(userTag);
}

/**
 * A circle's or an entry's names (and aliases) were indexed: every process teaches its search
 * segmenter those words before its next search (features/search/indexer.ts). Not a page tag.
 */
export const searchWordsTag = (type: string, id: number): string => `search-words:${type}:${id}`;

/** The subject a `searchWordsTag` names, or null for any other tag. */
export function parseSearchWordsTag(tag: string): { type: string; id: number } | null {
  const match = /^search-words:([a-z_]{1,32}):(\d{1,10})$/.exec(tag);
  return match ? { type: match[1]!, id: Number(match[2]) } : null;
}

/** The active ad campaigns: every process's serving index (features/ads) reloads when it changes. */
export const adsTag = "ads";
