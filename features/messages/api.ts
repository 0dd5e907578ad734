import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../common/app-error.ts";
import { authorize } from "../../common/policy.ts";
import { can } from "./policy.ts";
import { isReadCategory } from "./schema.ts";
import { jsonRoute, noContent } from "../../server/lib/operation.ts";
import {
  deleteNotificationOperation,
  listNotificationsOperation,
  publishAnnouncementOperation,
  readPreferencesOperation,
  savePreferencesOperation,
} from "./operations.ts";

/** The unread counters of the message centre. */
const unreadCountsSchema = z.strictObject({
  answer_count: z.number(),
  unread_comment_count: z.number(),
  unread_replies: z.number(),
  unread_announcement_count: z.number(),
  unread_sysmeg_count: z.number(),
  unread_like_count: z.number(),
  unread_favorite_count: z.number(),
  unread_follow_count: z.number(),
  unread_private_chat: z.number(),
  /** @ mentions: beside the spec's nine, so the @ page has its own counter. */
  unread_at_count: z.number(),
});
import { getUnreadSnapshot, markCategoryRead, unreadVersionHeader } from "./service.ts";

export async function messagesApi(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get("/api/Users/get_unread", { schema: { response: { 200: unreadCountsSchema } } }, async (request, reply) => {
    const viewer = await request.viewer();
    authorize(viewer, viewer !== null && can(viewer, "read_messages", { ownerId: viewer.id }));
    reply.header("cache-control", "no-store");
    const { counts, version } = await getUnreadSnapshot(app.db, viewer!.id);
    return reply.header(unreadVersionHeader, String(version)).send(counts);
  });

  api.patch(
    "/api/Users/read_meg/:category/",
    { schema: { params: z.object({ category: z.string().max(40) }), body: z.strictObject({}).nullish(), response: { 204: noContent } } },
    async (request, reply) => {
      const viewer = await request.viewer();
      authorize(viewer, viewer !== null && can(viewer, "read_messages", { ownerId: viewer.id }));
      const { category } = request.params;
      if (!isReadCategory(category)) throw new AppError("unknown_category");
      const version = await markCategoryRead(app.db, viewer!.id, category);
      return reply.header(unreadVersionHeader, String(version)).status(204).send(null);
    },
  );

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
