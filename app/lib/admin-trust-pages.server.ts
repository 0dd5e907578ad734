import { data } from "react-router";
import type { AppContext } from "../context.ts";
import { translator } from "../../common/i18n.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { dispatchIntent, formAction, type FormFailure } from "../../server/lib/operation.ts";
import { requireStaff } from "../../features/admin/staff.ts";
import { listRings } from "../../features/trust/review.ts";
import { dismissRingOperation, presentRing } from "../../features/trust/operations.ts";
import { verdictCounts } from "../../features/trust/verdicts.ts";
import { correctionApprovalAbove, listCorrections } from "../../features/admin/corrections.ts";
import {
  approveCorrectionOperation,
  presentCorrection,
  rejectCorrectionOperation,
  requestCorrectionOperation,
} from "../../features/admin/correction-operations.ts";
import { assertFormCsrf, readForm } from "./context.server.ts";
import { withFormToken } from "./circle-pages.server.ts";

/*
 * `/admin/trust` (the rings and today's uncounted actions) and the corrections part of
 * `/admin/ledger`: admins only, asked of the site-role policy on the server; plain forms.
 */

const formFailed = (failure: FormFailure) =>
  data({ formError: failure.formError ?? Object.values(failure.fieldErrors ?? {})[0] }, { status: failure.status });

export async function trustLoader(app: AppContext, request: Request) {
  await requireStaff(app.db, app.viewer, "manage_trust");
  const status = new URL(request.url, "http://local").searchParams.get("status") === "dismissed" ? "dismissed" : "open";
  const rings = (await listRings(app.db, status)).map(presentRing);
  const verdicts = await verdictCounts(app.db, shanghaiDay(app.now()));
  return withFormToken(app, { status, rings, verdicts });
}

export async function trustAction(app: AppContext, request: Request) {
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const t = translator(app.locale);
  return dispatchIntent(
    { app, request, form, params: {} },
    {
      dismiss: formAction(dismissRingOperation, {
        params: ({ form }) => ({ id: form.get("ring_id") }),
        done: () => ({ notice: t("admin:trust.dismissed") }),
        failed: formFailed,
        errorScreen: (error) => error.status === 401,
      }),
    },
  );
}

export async function correctionsLoaderPart(app: AppContext) {
  const member = await requireStaff(app.db, app.viewer, "manage_ledger");
  return {
    viewerId: member.id,
    approvalAbove: correctionApprovalAbove(),
    corrections: (await listCorrections(app.db)).map(presentCorrection),
  };
}

/** The correction intents of the `/admin/ledger` form posts. */
export function correctionIntents(app: AppContext) {
  const t = translator(app.locale);
  return {
    correct: formAction(requestCorrectionOperation, {
      done: (row) => ({ notice: t(row.status === "pending" ? "admin:corrections.requested" : "admin:corrections.posted") }),
      failed: formFailed,
      errorScreen: (error) => error.status === 401,
    }),
    approve: formAction(approveCorrectionOperation, {
      params: ({ form }) => ({ id: form.get("correction_id") }),
      done: () => ({ notice: t("admin:corrections.posted") }),
      failed: formFailed,
      errorScreen: (error) => error.status === 401,
    }),
    reject: formAction(rejectCorrectionOperation, {
      params: ({ form }) => ({ id: form.get("correction_id") }),
      done: () => ({ notice: t("admin:corrections.rejected") }),
      failed: formFailed,
      errorScreen: (error) => error.status === 401,
    }),
  };
}
