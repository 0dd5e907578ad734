import { z } from "zod";
import { AppError } from "../../common/app-error.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { publishAnnouncement, withdrawAnnouncement, type AnnouncementRow } from "../messages/announcements.ts";
import { recordAudit, reasonField, requireReason } from "./audit.ts";
import type { Staff } from "./staff.ts";

/*
 * `/admin/announcements`: staff write announcements in both languages, now or for a later time,
 * and withdraw them; each write audited with its reason. Readers and counters live in
 * features/messages/announcements.ts.
 */

const title = z.string().trim().min(1, "validation:announcement_title_length").max(100, "validation:announcement_title_length");
const body = z.string().trim().min(1, "validation:announcement_body_length").max(5000, "validation:announcement_body_length");

export const announcementDraftSchema = z.strictObject({
  title_zh: title,
  title_en: title,
  body_zh: body,
  body_en: body,
  /** ISO 8601 with its offset; absent, null or past: now. */
  publish_at: z.iso.datetime({ offset: true, message: "validation:invalid_value" }).nullish(),
  reason: reasonField,
});
export type AnnouncementDraft = z.infer<typeof announcementDraftSchema>;

export type AnnouncementStatus = "scheduled" | "published" | "withdrawn";

export function announcementStatus(row: AnnouncementRow): AnnouncementStatus {
  if (row.withdrawnAt) return "withdrawn";
  return row.announcedAt ? "published" : "scheduled";
}

export async function writeAnnouncement(
  options: ServiceOptions,
  viewer: Viewer,
  staff: Staff,
  address: string,
  draft: AnnouncementDraft,
): Promise<{ id: number; scheduled: boolean }> {
  const why = requireReason(draft.reason);
  const publishAt = draft.publish_at ? new Date(draft.publish_at) : undefined;
  const scheduled = publishAt !== undefined && publishAt.getTime() > Date.now();
  return inTransaction(options, async (tx) => {
    const { id } = await publishAnnouncement({ db: tx.db, tx }, viewer, {
      titleZh: draft.title_zh,
      titleEn: draft.title_en,
      bodyZh: draft.body_zh,
      bodyEn: draft.body_en,
      publishAt,
    });
    await recordAudit(
      tx.db,
      { staff, address },
      {
        action: "announcement.publish",
        target: `announcement:${id}`,
        after: { title_zh: draft.title_zh, title_en: draft.title_en, publish_at: (publishAt ?? new Date()).toISOString() },
        reason: why,
      },
    );
    return { id, scheduled };
  });
}

/** Withdraws a scheduled or published announcement: 404 when unknown or already withdrawn. */
export async function withdrawStaffAnnouncement(
  options: ServiceOptions,
  staff: Staff,
  address: string,
  id: number,
  reason: string | undefined,
): Promise<{ withdrawn: true }> {
  const why = requireReason(reason);
  return inTransaction(options, async (tx) => {
    const before = await withdrawAnnouncement({ db: tx.db, tx }, id, new Date());
    if (!before) throw new AppError("not_found");
    await recordAudit(
      tx.db,
      { staff, address },
      { action: "announcement.withdraw", target: `announcement:${id}`, before: { status: announcementStatus(before) }, reason: why },
    );
    return { withdrawn: true };
  });
}
