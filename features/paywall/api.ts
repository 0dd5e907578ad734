import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import {
  approveRefundOperation,
  refundRequestsOperation,
  rejectRefundOperation,
  requestRefundOperation,
  unlockOperation,
} from "./operations.ts";

export async function paywallApi(app: FastifyInstance): Promise<void> {
  const tags = ["wallet"];
  jsonRoute(app, "POST", "/api/writings/:id/unlock/", unlockOperation, {
    tags,
    summary: "Unlock a pay-to-view writing (one payment per reader; Idempotency-Key required); answers the whole text",
  });
  jsonRoute(app, "POST", "/api/writings/:id/unlock/refund_requests/", requestRefundOperation, {
    status: 201,
    tags,
    summary: "Ask for an unlock to be refunded, with a reason (within 24 hours, once; the author decides; Idempotency-Key required)",
  });
  jsonRoute(app, "GET", "/api/writings/:id/unlock/refund_requests/", refundRequestsOperation, {
    tags,
    summary: "A writing's refund requests, open first (its author and moderators)",
  });
  jsonRoute(app, "POST", "/api/unlock_refund_requests/:id/approve/", approveRefundOperation, {
    tags,
    summary: "Approve a refund request: the author pays the unlock back (Idempotency-Key required)",
  });
  jsonRoute(app, "POST", "/api/unlock_refund_requests/:id/reject/", rejectRefundOperation, {
    tags,
    summary: "Reject a refund request: the reader keeps the unlock (Idempotency-Key required)",
  });
}
