import { z } from "zod";
import { defineOperation } from "../../server/lib/operation.ts";
import { idSchema } from "../../common/id.ts";
import { listAllAnnouncements, type AnnouncementRow } from "../messages/announcements.ts";
import { reasonField } from "./audit.ts";
import { announcementDraftSchema, announcementStatus, withdrawStaffAnnouncement, writeAnnouncement } from "./announcements.ts";
import { contentKinds } from "./constants.ts";
import { contentParams, contentSearchSchema, moderateContent, protectContent, searchContent, type ContentRow } from "./content.ts";
import { requireStaff } from "./staff.ts";

/* The admin area's content and announcement operations: served by features/admin/api.ts and the /admin pages' forms. */

const contentRow = z.strictObject({
  type: z.enum(contentKinds),
  id: z.number().int(),
  circle_id: z.number().int().nullable(),
  author: z.strictObject({ id: z.number().int(), username: z.string() }).nullable(),
  title: z.string(),
  hidden: z.boolean(),
  protected: z.boolean().nullable(),
  created_at: z.string(),
  path: z.string().nullable(),
});

export function presentContentRow(row: ContentRow): z.infer<typeof contentRow> {
  return {
    type: row.type,
    id: row.id,
    circle_id: row.circleId,
    author: row.author,
    title: row.title,
    hidden: row.hidden,
    protected: row.protected,
    created_at: row.createdAt.toISOString(),
    path: row.path,
  };
}

export const listContentOperation = defineOperation({
  name: "adminListContent",
  input: { query: contentSearchSchema },
  viewer: "signed-in",
  run: async (services, viewer, { query }) => {
    await requireStaff(services.db, viewer, "moderate_content");
    return searchContent(services.db, viewer, query);
  },
  present: (page: { rows: ContentRow[]; nextCursor: number | null }) => ({
    results: page.rows.map(presentContentRow),
    next_cursor: page.nextCursor,
  }),
  response: z.strictObject({ results: z.array(contentRow), next_cursor: z.number().int().nullable() }),
  failures: ["forbidden"],
});

export const moderateContentOperation = defineOperation({
  name: "adminModerateContent",
  input: {
    params: contentParams,
    body: z.strictObject({
      action: z.enum(["hide", "restore"], { message: "validation:moderation_action_required" }),
      reason: reasonField,
    }),
  },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) =>
    moderateContent(services, viewer, await requireStaff(services.db, viewer, "moderate_content"), services.client.address, params, {
      action: body.action,
      reason: body.reason,
    }),
  present: (result: { hidden: boolean }) => result,
  response: z.strictObject({ hidden: z.boolean() }),
  failures: ["forbidden", "not_found", "reason_required", "moderation_action_unavailable", "case_closed"],
});

export const protectContentOperation = defineOperation({
  name: "adminProtectEntry",
  input: {
    params: z.object({ id: idSchema }),
    body: z.strictObject({ protected: z.boolean({ message: "validation:invalid_value" }), reason: reasonField }),
  },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) =>
    protectContent(services, viewer, await requireStaff(services.db, viewer, "moderate_content"), services.client.address, params.id, {
      protected: body.protected,
      reason: body.reason,
    }),
  present: (result: { protected: boolean }) => result,
  response: z.strictObject({ protected: z.boolean() }),
  failures: ["forbidden", "not_found", "reason_required"],
});

const announcementRow = z.strictObject({
  id: z.number().int(),
  title_zh: z.string(),
  title_en: z.string(),
  body_zh: z.string(),
  body_en: z.string(),
  status: z.enum(["scheduled", "published", "withdrawn"]),
  publish_at: z.string(),
  withdrawn_at: z.string().nullable(),
});

export function presentStaffAnnouncement(row: AnnouncementRow): z.infer<typeof announcementRow> {
  return {
    id: row.id,
    title_zh: row.titleZh,
    title_en: row.titleEn,
    body_zh: row.bodyZh,
    body_en: row.bodyEn,
    status: announcementStatus(row),
    publish_at: row.publishAt.toISOString(),
    withdrawn_at: row.withdrawnAt?.toISOString() ?? null,
  };
}

export const listStaffAnnouncementsOperation = defineOperation({
  name: "adminListAnnouncements",
  input: {},
  viewer: "signed-in",
  run: async (services, viewer) => {
    await requireStaff(services.db, viewer, "manage_announcements");
    return listAllAnnouncements(services.db);
  },
  present: (rows: AnnouncementRow[]) => ({ results: rows.map(presentStaffAnnouncement) }),
  response: z.strictObject({ results: z.array(announcementRow) }),
  failures: ["forbidden"],
});

export const writeAnnouncementOperation = defineOperation({
  name: "adminWriteAnnouncement",
  input: { body: announcementDraftSchema },
  viewer: "signed-in",
  run: async (services, viewer, { body }) =>
    writeAnnouncement(services, viewer, await requireStaff(services.db, viewer, "manage_announcements"), services.client.address, body),
  present: (result: { id: number; scheduled: boolean }) => result,
  response: z.strictObject({ id: z.number().int(), scheduled: z.boolean() }),
  failures: ["forbidden", "reason_required"],
  unexpected: "announcement_failed",
});

export const withdrawAnnouncementOperation = defineOperation({
  name: "adminWithdrawAnnouncement",
  input: { params: z.object({ id: idSchema }), body: z.strictObject({ reason: reasonField }).nullish() },
  viewer: "signed-in",
  run: async (services, viewer, { params, body }) =>
    withdrawStaffAnnouncement(
      services,
      await requireStaff(services.db, viewer, "manage_announcements"),
      services.client.address,
      params.id,
      body?.reason,
    ),
  present: (result: { withdrawn: true }) => result,
  response: z.strictObject({ withdrawn: z.literal(true) }),
  failures: ["forbidden", "not_found", "reason_required"],
});
