import { data } from "react-router";
import type { AppContext } from "../context.ts";
import { AppError } from "../../common/app-error.ts";
import { translator } from "../../common/i18n.ts";
import { pageUrl } from "../../common/locale.ts";
import { formAction, dispatchIntent } from "../../server/lib/operation.ts";
import { casesQuerySchema } from "../../features/reports/schema.ts";
import { presentCase, resolveCaseOperation, type PresentedCase } from "../../features/reports/operations.ts";
import { listCases } from "../../features/reports/service.ts";
import { assertFormCsrf, readForm } from "./context.server.ts";
import { withFormToken } from "./circle-pages.server.ts";

export type QueueStatus = "open" | "decided" | "all";

/**
 * A moderation queue page's data: the cases (a circle's and its sub-circles', or every one for
 * `/admin/reports`) in the status the `status` parameter names, with the form token. Visitors are
 * sent to sign in; anyone who moderates nothing here gets 403, like the API.
 */
export async function queueData(app: AppContext, request: Request, circleId: number | null) {
  if (!app.viewer) throw new AppError("not_authenticated");
  const raw = pageUrl(request.url).searchParams.get("status");
  const parsed = casesQuerySchema.safeParse({ status: raw ?? undefined, ...(circleId !== null ? { circle_id: circleId } : {}) });
  const query = parsed.success ? parsed.data : { status: "open" as const, ...(circleId !== null ? { circle_id: circleId } : {}) };
  const cases: PresentedCase[] = (await listCases(app.db, app.viewer, query)).map(presentCase);
  return { cases, status: query.status as QueueStatus };
}

/** The loader answer of a queue page (private, with the form token). */
export async function queueLoader<T extends object>(app: AppContext, request: Request, circleId: number | null, extra: T) {
  return withFormToken(app, { ...extra, ...(await queueData(app, request, circleId)) });
}

/**
 * A decision posted from a queue page (`intent=resolve`, `case_id`, `action`, `note`): the same
 * operation as `POST /api/moderation/cases/{id}/resolve/`; the page shows the saved decision or
 * the refusal in its language, and the revalidated list.
 */
export async function queueAction(app: AppContext, request: Request) {
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const t = translator(app.locale);
  return dispatchIntent(
    { app, request, form, params: {} },
    {
      resolve: formAction(resolveCaseOperation, {
        params: ({ form }) => ({ id: form.get("case_id") }),
        done: (answer) => ({ notice: t("moderation:queue.decided", { action: t(`moderation:queue.actions.${answer.decision}`) }) }),
        failed: (failure) =>
          data({ formError: failure.formError ?? Object.values(failure.fieldErrors ?? {})[0] }, { status: failure.status }),
        errorScreen: (error) => error.status === 401,
      }),
    },
  );
}
