import { z } from "zod";
import { defineOperation, noContent } from "../../server/lib/operation.ts";
import { idSchema } from "../../common/id.ts";
import { reasonField } from "../admin/audit.ts";
import { requireStaff } from "../admin/staff.ts";
import { applicationQueue, approveApplication, rejectApplication, type ApplicationRow } from "./review.ts";

/* Site admins' review of creator applications: the queue, approve, reject with a reason (`/admin/monetization` and the API). */

const applicationAnswer = z.strictObject({
  user_id: z.number().int(),
  username: z.string(),
  nickname: z.string(),
  user_type: z.string(),
  status: z.enum(["pending", "approved", "rejected"]),
  reason: z.string().nullable(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
});

export function presentApplication(row: ApplicationRow): z.infer<typeof applicationAnswer> {
  return {
    user_id: row.userId,
    username: row.username,
    nickname: row.nickname,
    user_type: row.userType,
    status: row.status,
    reason: row.reason,
    created_at: new Date(row.createdAt).toISOString(),
    decided_at: row.decidedAt ? new Date(row.decidedAt).toISOString() : null,
  };
}

export const applicationQueueOperation = defineOperation({
  name: "adminMonetizationApplications",
  input: {},
  viewer: "signed-in",
  run: async (services, viewer) => {
    await requireStaff(services.db, viewer, "review_monetization");
    return applicationQueue(services.db);
  },
  present: (queue: { waiting: ApplicationRow[]; recent: ApplicationRow[] }) => ({
    waiting: queue.waiting.map(presentApplication),
    recent: queue.recent.map(presentApplication),
  }),
  response: z.strictObject({ waiting: z.array(applicationAnswer), recent: z.array(applicationAnswer) }),
  failures: ["forbidden"],
});

const applicantParams = z.strictObject({ id: idSchema });
const decisionBody = z.strictObject({ reason: reasonField }).optional();

/** An admin's decision on one application (approve or reject), with its optional or required reason. */
function decisionOperation<Failure extends "reason_required">(
  name: string,
  decide: typeof approveApplication,
  extraFailures: readonly Failure[],
) {
  return defineOperation({
    name,
    input: { params: applicantParams, body: decisionBody },
    viewer: "signed-in",
    run: async (services, viewer, { params, body }) =>
      decide(
        { db: services.db },
        await requireStaff(services.db, viewer, "review_monetization"),
        services.client.address,
        params.id,
        body?.reason,
      ),
    present: () => null,
    response: noContent,
    failures: ["forbidden", "not_found", "application_decided", ...extraFailures],
  });
}

export const approveApplicationOperation = decisionOperation("adminApproveMonetizationApplication", approveApplication, []);
export const rejectApplicationOperation = decisionOperation("adminRejectMonetizationApplication", rejectApplication, ["reason_required"]);
