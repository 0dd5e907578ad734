import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import {
  approveCashoutOperation,
  cancelCashoutOperation,
  listCashoutsOperation,
  markSandboxPayoutOperation,
  quoteCashoutOperation,
  rejectCashoutOperation,
  requestCashoutOperation,
} from "./operations.ts";

/** Cashouts of settled profit to the payout account; the request carries an `Idempotency-Key` header. */
export async function cashoutsApi(app: FastifyInstance): Promise<void> {
  const tags = ["cashouts"];
  jsonRoute(app, "POST", "/api/cashouts/quote/", quoteCashoutOperation, {
    tags,
    summary: "The arithmetic of a cashout: fee, tax withheld, net",
  });
  jsonRoute(app, "POST", "/api/cashouts/", requestCashoutOperation, {
    tags,
    status: 201,
    summary: "Request a cashout of available profit (Idempotency-Key)",
  });
  jsonRoute(app, "GET", "/api/cashouts/", listCashoutsOperation, { tags, summary: "The viewer's cashouts, newest first" });
  jsonRoute(app, "DELETE", "/api/cashouts/:id/", cancelCashoutOperation, { tags, summary: "Cancel a cashout still waiting for review" });
  jsonRoute(app, "POST", "/api/cashouts/:id/sandbox/", markSandboxPayoutOperation, {
    tags,
    summary: "Payout sandbox: mark an approved cashout paid or failed",
  });
  jsonRoute(app, "POST", "/api/admin/cashouts/:id/approve/", approveCashoutOperation, {
    tags: ["admin"],
    summary: "Admins: approve a cashout",
  });
  jsonRoute(app, "POST", "/api/admin/cashouts/:id/reject/", rejectCashoutOperation, {
    tags: ["admin"],
    summary: "Admins: reject a cashout with a reason the user sees",
  });
}
