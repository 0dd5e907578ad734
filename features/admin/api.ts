import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import {
  getUserOperation,
  ledgerCheckOperation,
  listAuditOperation,
  listJobsOperation,
  listUsersOperation,
  resetProfileOperation,
  retryJobOperation,
  updateUserOperation,
} from "./operations.ts";
import {
  listContentOperation,
  listStaffAnnouncementsOperation,
  moderateContentOperation,
  protectContentOperation,
  withdrawAnnouncementOperation,
  writeAnnouncementOperation,
} from "./content-operations.ts";
import {
  approveCorrectionOperation,
  listCorrectionsOperation,
  rejectCorrectionOperation,
  requestCorrectionOperation,
} from "./correction-operations.ts";
import { dismissRingOperation, listRingsOperation } from "../trust/operations.ts";

/** The admin area's API: staff only, each route checked by the site-role policy (features/admin/policy.ts). */
export async function adminApi(app: FastifyInstance): Promise<void> {
  const tags = ["admin"];
  jsonRoute(app, "GET", "/api/admin/users/", listUsersOperation, {
    tags,
    summary: "Staff: find accounts by username, nickname, email or phone",
  });
  jsonRoute(app, "GET", "/api/admin/users/:id/", getUserOperation, {
    tags,
    summary: "Staff: one account with its counts, sign-ins and wallet",
  });
  jsonRoute(app, "PATCH", "/api/admin/users/:id/", updateUserOperation, {
    tags,
    summary: "Staff: set an account's type or site role (admins), suspend or lift a suspension, with a reason",
  });
  jsonRoute(app, "GET", "/api/admin/audit/", listAuditOperation, {
    tags,
    summary: "Staff: the audit log, newest first, by actor, action and target",
  });
  jsonRoute(app, "GET", "/api/admin/jobs/", listJobsOperation, { tags, summary: "Admins: job schedules, recent runs and failed jobs" });
  jsonRoute(app, "POST", "/api/admin/jobs/:id/retry/", retryJobOperation, { tags, summary: "Admins: put a failed job back on its queue" });
  jsonRoute(app, "POST", "/api/admin/ledger/check/", ledgerCheckOperation, {
    tags,
    summary: "Admins: run the ledger check now and keep its result",
  });
  jsonRoute(app, "GET", "/api/admin/content/", listContentOperation, {
    tags,
    summary: "Staff: find any content by kind, circle, author or text, hidden or not",
  });
  jsonRoute(app, "POST", "/api/admin/content/:type/:id/moderation/", moderateContentOperation, {
    tags,
    summary: "Staff: hide or restore a subject through its moderation case, with a reason the author is told",
  });
  jsonRoute(app, "POST", "/api/admin/content/entry/:id/protection/", protectContentOperation, {
    tags,
    summary: "Staff: protect or unprotect an encyclopedia entry, with a reason",
  });
  jsonRoute(app, "GET", "/api/admin/announcements/", listStaffAnnouncementsOperation, {
    tags,
    summary: "Staff: every announcement, scheduled and withdrawn ones too",
  });
  jsonRoute(app, "POST", "/api/admin/announcements/", writeAnnouncementOperation, {
    status: 201,
    tags,
    summary: "Staff: publish an announcement in both languages now or at `publish_at`, with a reason",
  });
  jsonRoute(app, "POST", "/api/admin/announcements/:id/withdraw/", withdrawAnnouncementOperation, {
    tags,
    summary: "Staff: withdraw an announcement, with a reason",
  });
  jsonRoute(app, "POST", "/api/admin/users/:id/reset/", resetProfileOperation, {
    tags,
    summary: "Staff: reset a nickname (to the username) or avatar (to the default) that breaks the rules, with a reason; the user is told",
  });
  jsonRoute(app, "GET", "/api/admin/ledger/corrections/", listCorrectionsOperation, {
    tags,
    summary: "Admins: the latest ledger corrections, pending ones first, and the amount above which a second admin approves",
  });
  jsonRoute(app, "POST", "/api/admin/ledger/corrections/", requestCorrectionOperation, {
    status: 201,
    tags,
    summary:
      "Admins: correct a balance with a new balanced transaction and a reason; above the configured amount it waits for a second admin",
  });
  jsonRoute(app, "POST", "/api/admin/ledger/corrections/:id/approve/", approveCorrectionOperation, {
    tags,
    summary: "Admins: a second admin approves (posts) a pending correction, with a reason",
  });
  jsonRoute(app, "POST", "/api/admin/ledger/corrections/:id/reject/", rejectCorrectionOperation, {
    tags,
    summary: "Admins: a second admin rejects a pending correction, with a reason",
  });
  jsonRoute(app, "GET", "/api/admin/trust/rings/", listRingsOperation, {
    tags,
    summary: "Admins: the rings of accounts the nightly job found, with their members and evidence",
  });
  jsonRoute(app, "POST", "/api/admin/trust/rings/:id/dismiss/", dismissRingOperation, {
    tags,
    summary: "Admins: dismiss a ring judged harmless, with a reason",
  });
}
