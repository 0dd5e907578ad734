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
  /** A moderation decision: what was decided, whether the viewer reported or wrote it, and the moderator's note. */
  decision: z.object({ action: z.string(), role: z.enum(["reporter", "author"]), note: z.string() }).optional(),
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
  run(services, viewer, { params, query }): Promise<NotificationPage> {
    if (!Object.hasOwn(notificationLists, params.category)) throw new AppError("unknown_category");
    const categories = notificationLists[params.category as NotificationList];
    return listNotifications(services.db, viewer, categories, query.cursor);
  },
  present: (page) => ({ results: page.items.map(presentNotification), next_cursor: page.nextCursor }),
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
