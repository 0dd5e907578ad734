import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import {
  deleteNotificationOperation,
  listNotificationsOperation,
  publishAnnouncementOperation,
  readPreferencesOperation,
  savePreferencesOperation,
} from "./operations.ts";
import { unreadVersionHeader } from "./service.ts";
import { getUnreadOperation, markCategoryReadOperation } from "./unread-operations.ts";

export async function messagesApi(app: FastifyInstance): Promise<void> {
  const version = (result: { version: number }) => ({ [unreadVersionHeader]: String(result.version) });
  jsonRoute(app, "GET", "/api/Users/get_unread", getUnreadOperation, {
    tags: ["messages"],
    summary: "The viewer's unread counters (their version in a header)",
    cache: "no-store",
    headers: version,
  });
  jsonRoute(app, "PATCH", "/api/Users/read_meg/:category/", markCategoryReadOperation, {
    tags: ["messages"],
    status: 204,
    summary: "Zero the unread counters of a message category",
    headers: version,
  });

  jsonRoute(app, "GET", "/api/messages/:category/", listNotificationsOperation, {
    tags: ["messages"],
    summary: "One's notifications of a category, newest first, 20 a page (likes and favourites of one subject as one line)",
  });
  jsonRoute(app, "DELETE", "/api/messages/notifications/:id/", deleteNotificationOperation, {
    tags: ["messages"],
    status: 204,
    summary: "Delete one of one's notifications (a grouped line: all of it)",
  });
  jsonRoute(app, "POST", "/api/announcements/", publishAnnouncementOperation, {
    status: 201,
    tags: ["messages"],
    summary: "Publish a site announcement in both languages (site moderators); every user's announcement counter rises",
  });
  jsonRoute(app, "GET", "/api/messages/preferences/", readPreferencesOperation, {
    tags: ["messages"],
    summary: "The message categories one muted (muted ones create no notification and no counter)",
  });
  jsonRoute(app, "PUT", "/api/messages/preferences/", savePreferencesOperation, {
    tags: ["messages"],
    summary:
      "Mute categories (`muted`: answers, reply, comment, at, like, favorite, follow, announcements); system notices cannot be muted",
  });
}
