import { data, Form, Link, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/subject-report";
import { assertFormCsrf, getAppContext, readForm, requireViewer } from "../lib/context.server.ts";
import { withFormToken } from "../lib/circle-pages.server.ts";
import { isFetcherCall } from "../lib/interaction-pages.server.ts";
import { localizePath, pageUrl, safeNextPath, stripLocale, type Locale } from "../../common/locale.ts";
import { AppError } from "../../common/app-error.ts";
import { pageMeta } from "../lib/meta.ts";
import { formAction } from "../../server/lib/operation.ts";
import { loadSubject } from "../../features/subjects/registry.ts";
import { reportOperation } from "../../features/reports/operations.ts";
import { ReportFields } from "../components/report-fields.tsx";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "interactions:report.dialog_title");
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

function subjectId(raw: string): number {
  if (!/^\d{1,9}$/.test(raw)) throw new AppError("not_found");
  return Number(raw);
}

/** The page to go back to (`next`, a path of this site), else the subject's own page. */
function backPath(request: Request, fallback: string): string {
  const next = safeNextPath(pageUrl(request.url).searchParams.get("next"));
  return next ? stripLocale(next) : fallback;
}

/**
 * `/subjects/{type}/{id}/report`: the report form of any subject (the action bar's Report without
 * JavaScript, and the dialog's target with it). Visitors are sent to sign in and brought back; a
 * subject the viewer may not read is a 404. After a report (`?done=1`) it says so and links back.
 */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  requireViewer(app);
  const subject = await loadSubject(app.db, app.viewer, params.type, subjectId(params.id));
  const url = pageUrl(request.url);
  return withFormToken(app, {
    subject: { type: subject.type, id: subject.id, title: subject.title },
    back: backPath(request, subject.path),
    done: url.searchParams.get("done") === "1",
  });
}

/**
 * The report itself, by the operation of `POST /api/subjects/{type}/{id}/reports/`: with
 * JavaScript (the dialog's fetcher) `{ state }` or `{ error }`; without it back here with
 * `?done=1`, or the form again with the message.
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const fetcher = isFetcherCall(request);
  const next = form.get("next");
  const back = safeNextPath(typeof next === "string" ? next : null);
  const report = formAction(reportOperation, {
    params: () => ({ type: params.type, id: params.id }),
    done: (answer) => {
      if (fetcher) return data({ state: answer });
      const query = new URLSearchParams({ done: "1", ...(back ? { next: stripLocale(back) } : {}) });
      return redirect(`${localizePath(`/subjects/${params.type}/${params.id}/report`, app.locale)}?${query}`, 303);
    },
    failed: (failure) =>
      data(
        fetcher
          ? { error: failure.formError ?? Object.values(failure.fieldErrors ?? {})[0] }
          : { formError: failure.formError, fieldErrors: failure.fieldErrors },
        { status: failure.status },
      ),
  });
  return report({ app, request, form, params });
}

export default function SubjectReport({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("interactions");
  const locale = i18n.language as Locale;
  const { subject, back, done, csrfToken } = loaderData;
  const failure = actionData && "formError" in actionData ? actionData : undefined;
  const action = localizePath(`/subjects/${subject.type}/${subject.id}/report`, locale);
  return (
    <section className="panel report-page" aria-labelledby="report-title">
      <h1 id="report-title" className="page-title">
        {t("report.heading", { title: subject.title })}
      </h1>
      {done ? (
        <>
          <p className="notice" role="status" data-testid="report-done">
            {t("report.done")}
          </p>
          <p>
            <Link to={localizePath(back, locale)}>{t("report.back")}</Link>
          </p>
        </>
      ) : (
        <Form method="post" action={action} className="stack-form" data-testid="report-form">
          <input type="hidden" name="csrftoken" value={csrfToken} />
          <input type="hidden" name="next" value={back} />
          <ReportFields formError={failure?.formError} fieldErrors={failure?.fieldErrors} />
          <div className="form-actions">
            <button type="submit" className="button button-primary" data-testid="report-submit">
              {t("report.submit")}
            </button>
            <Link className="button" to={localizePath(back, locale)}>
              {t("report.cancel")}
            </Link>
          </div>
        </Form>
      )}
    </section>
  );
}
