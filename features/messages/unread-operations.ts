import { z } from "zod";
import { AppError } from "../../common/app-error.ts";
import { authorize } from "../../common/policy.ts";
import { defineOperation, noContent } from "../../server/lib/operation.ts";
import { can } from "./policy.ts";
import { isReadCategory } from "./schema.ts";
import { getUnreadSnapshot, markCategoryRead } from "./service.ts";

/* The message centre's unread counters: reading them and zeroing a category's. Both answer the counters' version in a header (see api.ts). */

/** The unread counters of the message centre. */
export const unreadCountsSchema = z.strictObject({
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

export const getUnreadOperation = defineOperation({
  name: "getUnreadCounts",
  input: {},
  viewer: "signed-in",
  run: (services, viewer) => {
    authorize(viewer, can(viewer, "read_messages", { ownerId: viewer.id }));
    return getUnreadSnapshot(services.db, viewer.id);
  },
  present: (snapshot) => snapshot.counts,
  response: unreadCountsSchema,
  failures: ["forbidden"],
});

export const markCategoryReadOperation = defineOperation({
  name: "markCategoryRead",
  // The category is checked by the use case, so an unknown one is `unknown_category`, not a validation failure.
  input: { params: z.object({ category: z.string().max(40) }), body: z.strictObject({}).nullish() },
  viewer: "signed-in",
  run: async (services, viewer, { params }) => {
    authorize(viewer, can(viewer, "read_messages", { ownerId: viewer.id }));
    if (!isReadCategory(params.category)) throw new AppError("unknown_category");
    return { version: await markCategoryRead(services.db, viewer.id, params.category) };
  },
  present: () => null,
  response: noContent,
  failures: ["forbidden", "unknown_category"],
});
