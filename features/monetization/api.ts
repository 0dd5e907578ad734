import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import {
  applyOperation,
  incomeOperation,
  statementCsvOperation,
  statementsOperation,
  monetizationHomeOperation,
  monetizationOperation,
} from "./operations.ts";
import { applicationQueueOperation, approveApplicationOperation, rejectApplicationOperation } from "./review-operations.ts";
import { buyMembershipOperation, membershipAutoRenewOperation, membershipsOperation } from "./membership-operations.ts";

/** The monetization programme: who takes part, the paths with each criterion's progress, applying as a creator. */
export async function monetizationApi(app: FastifyInstance): Promise<void> {
  const tags = ["monetization"];
  jsonRoute(app, "GET", "/api/monetization/", monetizationOperation, {
    tags,
    summary: "The viewer's type, whether they take part, each path's criteria with progress, and their application",
  });
  jsonRoute(app, "POST", "/api/monetization/application/", applyOperation, {
    tags,
    status: 201,
    summary: "Apply as a creator: approved at once when every criterion is met, else pending for review",
  });
  jsonRoute(app, "GET", "/api/monetization/home/", monetizationHomeOperation, {
    tags,
    summary: "The viewer's earnings at a glance: the three profit figures, income pending settlement, debt, this month by source",
  });
  jsonRoute(app, "GET", "/api/monetization/income/", incomeOperation, {
    tags,
    summary: "Every line of the viewer's cashable income, newest first (cursor): who paid, source, piece, amount, pending or available",
  });
  jsonRoute(app, "GET", "/api/monetization/statements/", statementsOperation, {
    tags,
    summary: "The viewer's monthly statements: income by source, refunds, net, cashouts paid with fee and tax withheld",
  });
  jsonRoute(app, "GET", "/api/monetization/statements/:file", statementCsvOperation, {
    tags,
    contentType: "text/csv; charset=utf-8",
    summary: "One month's statement (`YYYY-MM.csv`) as CSV with a BOM, in the viewer's language",
  });
  jsonRoute(app, "GET", "/api/monetization/membership/", membershipsOperation, {
    tags,
    summary: "The VIP and SVIP plans (days, prices, benefits) and the viewer's membership",
  });
  jsonRoute(app, "POST", "/api/monetization/membership/", buyMembershipOperation, {
    tags,
    status: 201,
    summary: "Buy a VIP or SVIP membership with sinecoin for 30, 90 or 365 days (Idempotency-Key required); the tier held is extended",
  });
  jsonRoute(app, "PUT", "/api/monetization/membership/auto_renew/", membershipAutoRenewOperation, {
    tags,
    summary: "Turn automatic renewal of the running membership on or off",
  });
  jsonRoute(app, "GET", "/api/admin/monetization/applications/", applicationQueueOperation, {
    tags,
    summary: "Site admins: creator applications waiting for review (oldest first) and the latest decided",
  });
  jsonRoute(app, "POST", "/api/admin/monetization/applications/:id/approve/", approveApplicationOperation, {
    tags,
    status: 204,
    summary: "Site admins: approve a creator application (the applicant becomes an Official user; audited)",
  });
  jsonRoute(app, "POST", "/api/admin/monetization/applications/:id/reject/", rejectApplicationOperation, {
    tags,
    status: 204,
    summary: "Site admins: reject a creator application with a reason the applicant reads (audited)",
  });
}
