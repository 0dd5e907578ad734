import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import { refundOperation, unlockOperation } from "./operations.ts";

export async function paywallApi(app: FastifyInstance): Promise<void> {
  const tags = ["wallet"];
  jsonRoute(app, "POST", "/api/writings/:id/unlock/", unlockOperation, {
    tags,
    summary: "Unlock a pay-to-view writing (one payment per reader; Idempotency-Key required); answers the whole text",
  });
  jsonRoute(app, "POST", "/api/writings/:id/unlock/refund/", refundOperation, {
    tags,
    summary: "Refund an unlock within 24 hours, once (Idempotency-Key required)",
  });
}
