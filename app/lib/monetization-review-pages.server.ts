import { data } from "react-router";
import type { AppContext } from "../context.ts";
import { assertFormCsrf, readForm } from "./context.server.ts";
import { withFormToken } from "./circle-pages.server.ts";
import { translator } from "../../common/i18n.ts";
import { dispatchIntent, formAction, type FormFailure } from "../../server/lib/operation.ts";
import { requireStaff } from "../../features/admin/staff.ts";
import { applicationQueue } from "../../features/monetization/review.ts";
import {
  approveApplicationOperation,
  presentApplication,
  rejectApplicationOperation,
} from "../../features/monetization/review-operations.ts";

/** `/admin/monetization`'s data: site admins only (checked on the server), the queue and the latest decided. */
export async function adminMonetizationLoader(app: AppContext) {
  await requireStaff(app.db, app.viewer, "review_monetization");
  const { waiting, recent } = await applicationQueue(app.db);
  return withFormToken(app, { waiting: waiting.map(presentApplication), recent: recent.map(presentApplication) });
}

/** Approve or reject one application: the same operations as the API, as plain form posts. */
export async function adminMonetizationAction(app: AppContext, request: Request) {
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const t = translator(app.locale);
  const failed = (failure: FormFailure) =>
    data({ formError: failure.formError ?? Object.values(failure.fieldErrors ?? {})[0] }, { status: failure.status });
  const params = () => ({ id: String(form.get("user_id") ?? "") });
  return dispatchIntent(
    { app, request, form, params: {} },
    {
      approve: formAction(approveApplicationOperation, { params, done: () => ({ notice: t("monetization:review.approved") }), failed }),
      reject: formAction(rejectApplicationOperation, { params, done: () => ({ notice: t("monetization:review.rejected") }), failed }),
    },
  );
}
