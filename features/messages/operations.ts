import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { AppError } from "../../common/app-error.ts";
import { defineOperation, noContent } from "../../server/lib/operation.ts";
import { inTransaction } from "../../server/lib/transactions.ts";
import {
  deleteNotification,
  listNotifications,
  type NotificationCategory,
  type NotificationItem,
  type NotificationPage,
} from "./notifications.ts";
import { listAnnouncements, publishAnnouncement, type Announcement } from "./announcements.ts";
import { mutableCategories, mutedCategories, setMutedCategories } from "./preferences.ts";

/** The lists of `GET /api/messages/{category}/` and the notification categories each shows. */
export const notificationLists = {
  answers: ["answers"],
  reply: ["reply"],
  comment: ["comment"],
  at: ["at"],
  "like-favorite": ["like", "favorite"],
  follow: ["follow"],
  system: ["system"],
  announcements: [],
} as const satisfies Record<string, readonly NotificationCategory[]>;
export type NotificationList = keyof typeof notificationLists;

const actorAnswer = z.object({ username: z.string(), nickname: z.string(), avatar: z.string() });
export const notificationAnswer = z.object({
  id: z.number().int(),
  category: z.string(),
  verb: z.string(),
  actors: z.array(actorAnswer),
  count: z.number().int(),
  /** `url` null when the viewer can no longer open it (a decision about hidden or deleted content). */
  subject: z.object({ type: z.string(), id: z.number().int(), title: z.string(), url: z.string().nullable() }),
  /** What a comment's subject belongs to (the article it comments on), so the line names the content. */
  context: z.object({ type: z.string(), id: z.number().int(), title: z.string(), url: z.string() }).optional(),
  /** A comment or reply that also @-mentions the viewer (one notification, marked). */
  mentioned: z.boolean().optional(),
  /** A moderation decision: what was decided, whether the viewer reported or wrote it, and the moderator's note. */
  decision: z.object({ action: z.string(), role: z.enum(["reporter", "author"]), note: z.string() }).optional(),
  /** An announcement's text. */
  text: z.string().optional(),
  created_at: z.string(),
  unread: z.boolean(),
});
export type NotificationAnswer = z.infer<typeof notificationAnswer>;

export function presentNotification(item: NotificationItem): NotificationAnswer {
  return {
    id: item.id,
    category: item.category,
    verb: item.verb,
    actors: item.actors,
    count: item.count,
    subject: { type: item.subject.type, id: item.subject.id, title: item.subject.title, url: item.subject.path },
    ...(item.context
      ? { context: { type: item.context.type, id: item.context.id, title: item.context.title, url: item.context.path } }
      : {}),
    ...(item.mentioned ? { mentioned: true } : {}),
    ...(item.decision ? { decision: item.decision } : {}),
    created_at: item.createdAt.toISOString(),
    unread: item.unread,
  };
}

export const listNotificationsOperation = defineOperation({
  name: "listNotifications",
  input: {
    params: z.object({ category: z.string().max(40) }),
    query: z.object({ cursor: z.string().max(24).optional() }),
  },
  viewer: "signed-in",
  async run(services, viewer, { params, query }): Promise<{ results: NotificationAnswer[]; nextCursor: string | null }> {
    if (!Object.hasOwn(notificationLists, params.category)) throw new AppError("unknown_category");
    if (params.category === "announcements") {
      const page = await listAnnouncements(services.db, viewer, services.locale, query.cursor);
      return { results: page.items.map(presentAnnouncement), nextCursor: page.nextCursor };
    }
    const categories = notificationLists[params.category as NotificationList];
    const page: NotificationPage = await listNotifications(services.db, viewer, categories, query.cursor);
    return { results: page.items.map(presentNotification), nextCursor: page.nextCursor };
  },
  present: (page) => ({ results: page.results, next_cursor: page.nextCursor }),
  response: z.object({ results: z.array(notificationAnswer), next_cursor: z.string().nullable() }),
  failures: ["unknown_category"],
});

export const deleteNotificationOperation = defineOperation({
  name: "deleteNotification",
  input: { params: z.object({ id: idSchema }), body: z.strictObject({}).nullish() },
  viewer: "signed-in",
  run: (services, viewer, { params }) => inTransaction(services, (tx) => deleteNotification(tx, viewer, params.id)),
  present: () => null,
  response: noContent,
  failures: ["not_found"],
});

const announcementTitle = z.string().trim().min(1, "validation:announcement_title_length").max(100, "validation:announcement_title_length");
const announcementBody = z.string().trim().min(1, "validation:announcement_body_length").max(5000, "validation:announcement_body_length");

/** A site announcement, in both languages (site moderators only). */
export const publishAnnouncementOperation = defineOperation({
  name: "publishAnnouncement",
  input: {
    body: z.strictObject({
      title_zh: announcementTitle,
      title_en: announcementTitle,
      body_zh: announcementBody,
      body_en: announcementBody,
    }),
  },
  viewer: "signed-in",
  run: (services, viewer, { body }) =>
    publishAnnouncement(services, viewer, { titleZh: body.title_zh, titleEn: body.title_en, bodyZh: body.body_zh, bodyEn: body.body_en }),
  present: (result) => ({ id: result.id }),
  response: z.object({ id: z.number().int() }),
  failures: ["forbidden"],
  unexpected: "announcement_failed",
});

/** An announcement as a list line: the notification shape, its text beside it. */
export function presentAnnouncement(item: Announcement): NotificationAnswer {
  return {
    id: item.id,
    category: "announcements",
    verb: "announcement.published",
    actors: item.author ? [item.author] : [],
    count: 1,
    subject: { type: "announcement", id: item.id, title: item.title, url: `/messages/announcements#announcement-${item.id}` },
    text: item.body,
    created_at: item.createdAt.toISOString(),
    unread: item.unread,
  };
}

const preferencesAnswer = z.object({
  muted: z.array(z.enum(mutableCategories)),
  /** Every category that can be muted (system notices and private messages cannot). */
  mutable: z.array(z.enum(mutableCategories)),
});

export const readPreferencesOperation = defineOperation({
  name: "readMessagePreferences",
  input: {},
  viewer: "signed-in",
  run: async (services, viewer) => [...(await mutedCategories(services.db, viewer.id))],
  present: (muted) => ({ muted: mutableCategories.filter((category) => muted.includes(category)), mutable: [...mutableCategories] }),
  response: preferencesAnswer,
  failures: [],
});

/** Replaces the muted categories; an unknown or unmutable one (`system`) is a validation error. */
export const savePreferencesOperation = defineOperation({
  name: "saveMessagePreferences",
  input: { body: z.strictObject({ muted: z.array(z.enum(mutableCategories, "validation:category_not_mutable")).max(20) }) },
  viewer: "signed-in",
  run: (services, viewer, { body }) => setMutedCategories(services, viewer.id, body.muted),
  present: (muted) => ({ muted: mutableCategories.filter((category) => muted.includes(category)), mutable: [...mutableCategories] }),
  response: preferencesAnswer,
  failures: [],
});
