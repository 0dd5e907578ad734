import { data } from "react-router";
import type { AppContext } from "../context.ts";
import { translator } from "../../common/i18n.ts";
import { pageUrl } from "../../common/locale.ts";
import { dispatchIntent, formAction, type FormFailure } from "../../server/lib/operation.ts";
import { requireStaff } from "../../features/admin/staff.ts";
import { listDisputes } from "../../features/trade/disputes.ts";
import { decideDisputeOperation, presentDispute } from "../../features/trade/dispute-operations.ts";
import { assertFormCsrf, readForm } from "./context.server.ts";
import { withFormToken } from "./circle-pages.server.ts";

/** `/admin/disputes`: the open disputes (or, `?state=decided`, the decided ones), for site moderators and admins. */
export async function disputesLoader(app: AppContext, request: Request) {
  await requireStaff(app.db, app.viewer, "review_trade_disputes");
  const state = pageUrl(request.url).searchParams.get("state") === "decided" ? "decided" : "open";
  const rows = await listDisputes(app.db, state);
  return withFormToken(app, { state, disputes: rows.map((row) => presentDispute(row, app.locale)) });
}

/** Uphold or overturn one dispute, with a reason: the same operation as the admin API. */
export async function disputesAction(app: AppContext, request: Request) {
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const t = translator(app.locale);
  return dispatchIntent(
    { app, request, form, params: {} },
    {
      decide: formAction(decideDisputeOperation, {
        params: ({ form }) => ({ id: form.get("progress_id") }),
        body: (form) => ({ decision: String(form.get("decision") ?? ""), reason: String(form.get("reason") ?? "") }),
        done: () => ({ notice: t("trade:disputes.decided_notice") }),
        failed: (failure: FormFailure) =>
          data({ formError: failure.formError ?? Object.values(failure.fieldErrors ?? {})[0] }, { status: failure.status }),
        errorScreen: (error) => error.status === 401 || error.status === 403,
      }),
    },
  );
}
