import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import {
  acceptTaskOperation,
  approveWorkOperation,
  cancelTaskOperation,
  disputeOperation,
  getProgressOperation,
  getTaskOperation,
  listProgressOperation,
  listTasksOperation,
  postTaskOperation,
  rejectWorkOperation,
  submitWorkOperation,
} from "./operations.ts";
import { decideDisputeOperation, listDisputesOperation } from "./dispute-operations.ts";

export async function tradeApi(app: FastifyInstance): Promise<void> {
  const tags = ["trade"];
  jsonRoute(app, "POST", "/api/trade/missions/", postTaskOperation, {
    status: 201,
    tags,
    summary: "Post a paid task in a circle: reward × slots is held from one's sinecoin at once (Idempotency-Key required)",
  });
  jsonRoute(app, "GET", "/api/trade/missions/", listTasksOperation, {
    tags,
    summary: "Tasks in readable circles (circle, status, sort, minimum reward)",
  });
  jsonRoute(app, "GET", "/api/trade/missions/:id/", getTaskOperation, { tags, summary: "One task, with the viewer's own progress on it" });
  jsonRoute(app, "DELETE", "/api/trade/missions/:id/", cancelTaskOperation, {
    status: 204,
    tags,
    summary: "Cancel one's task: only the slots nobody took are refunded",
  });
  jsonRoute(app, "POST", "/api/trade/missions/:id/accept/", acceptTaskOperation, {
    status: 201,
    tags,
    summary: "Take one slot of a task (409 no_slots or already_accepted; 403 for its poster)",
  });
  jsonRoute(app, "GET", "/api/trade/progress/", listProgressOperation, {
    tags,
    summary: "One's progress records as a worker or as a poster",
  });
  jsonRoute(app, "GET", "/api/trade/progress/:id/", getProgressOperation, {
    tags,
    summary: "One progress record (its worker and the task's poster)",
  });
  jsonRoute(app, "POST", "/api/trade/progress/:id/submit/", submitWorkOperation, { tags, summary: "Submit one's work on a taken slot" });
  jsonRoute(app, "POST", "/api/trade/progress/:id/approve/", approveWorkOperation, {
    tags,
    summary: "Approve a submission: its reward moves from the task's hold to the worker (the poster only)",
  });
  jsonRoute(app, "POST", "/api/trade/progress/:id/reject/", rejectWorkOperation, {
    tags,
    summary: "Reject a submission with a reason: the slot reopens (the poster only)",
  });
  jsonRoute(app, "POST", "/api/trade/progress/:id/dispute/", disputeOperation, {
    tags,
    summary: "Dispute a rejection (to the admins' queue)",
  });
  jsonRoute(app, "GET", "/api/admin/trade/disputes/", listDisputesOperation, {
    tags: ["admin"],
    summary: "Disputed rejections of task submissions: open (oldest first) or decided (site moderators and admins)",
  });
  jsonRoute(app, "POST", "/api/admin/trade/disputes/:id/", decideDisputeOperation, {
    tags: ["admin"],
    summary: "Decide a dispute with a reason (audited): uphold the rejection, or overturn it and pay the worker",
  });
}
