import { data, Form, Link, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/monetization";
import { assertFormCsrf, getAppContext, here, readForm, requireViewer } from "../lib/context.server.ts";
import { withFormToken } from "../lib/circle-pages.server.ts";
import { can } from "../../features/accounts/policy.ts";
import { dispatchIntent, formAction, type FormFailure } from "../../server/lib/operation.ts";
import { applyOperation, presentMonetization } from "../../features/monetization/operations.ts";
import { monetizationStatus } from "../../features/monetization/service.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import "../lib/monetization-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "monetization:programme.title");
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * `/monetization`: participants (any user type but "Registered users") go straight to their
 * monetization home; a Registered user sees the path to join with a progress bar per criterion
 * (the criteria are data: `features/monetization/criteria.ts`) and applies.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  if (can(app.viewer, "enter_monetization_home")) throw redirect(here(app, "/monetization/home"));
  return withFormToken(app, { status: presentMonetization(await monetizationStatus(app.db, viewer.id, app.now())) });
}

export async function action({ context, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  requireViewer(app);
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const path = localizePath("/monetization", app.locale);
  return dispatchIntent(
    { app, request, form, params: {} },
    {
      apply: formAction(applyOperation, {
        done: () => {
          throw redirect(path, 303);
        },
        failed: (failure: FormFailure) => data({ error: failure.formError }, { status: failure.status }),
      }),
    },
  );
}

export default function Monetization({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("monetization");
  const locale = i18n.language as Locale;
  const { status, csrfToken } = loaderData;
  const error = actionData && "error" in actionData ? actionData.error : null;
  const application = status.application;
  const criterionName = (key: string, required: number) => t(`programme.criterion.${key}`, { required });
  const applyForm = (
    <Form method="post" action={localizePath("/monetization", locale)}>
      <input type="hidden" name="csrftoken" value={csrfToken} />
      <button type="submit" name="intent" value="apply" className="button button-primary">
        {t("programme.apply")}
      </button>
    </Form>
  );
  return (
    <section className="panel monetization-page" aria-labelledby="monetization-title">
      <h1 id="monetization-title" className="page-title">
        {t("programme.title")}
      </h1>
      <p className="muted">
        {t("programme.intro")} {t("programme.intro_membership")}
      </p>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {status.paths.map((path) => (
        <section key={path.key} aria-labelledby={`path-${path.key}`} className="monetization-path">
          <h2 id={`path-${path.key}`} className="section-title">
            {t(`programme.path_${path.key}`)}
          </h2>
          <ul className="criteria" data-testid={`path-${path.key}`}>
            {path.criteria.map((criterion) => {
              // An "at most" criterion is full while met, empty once exceeded.
              const share =
                criterion.bound === "at_most"
                  ? criterion.met
                    ? 1
                    : 0
                  : Math.min(1, criterion.required === 0 ? 1 : criterion.current / criterion.required);
              return (
                <li key={criterion.key} data-met={criterion.met ? "true" : "false"}>
                  <span>{criterionName(criterion.key, criterion.required)}</span>{" "}
                  <progress max={100} value={Math.round(share * 100)} aria-label={criterionName(criterion.key, criterion.required)} />{" "}
                  <span>{t("programme.progress", { current: criterion.current, required: criterion.required })}</span> ·{" "}
                  <strong>{criterion.met ? t("programme.met") : t("programme.not_met")}</strong>
                </li>
              );
            })}
          </ul>
          {path.key === "membership" ? (
            <p>
              <Link className="button button-primary" to={`${localizePath("/shop", locale)}#membership`}>
                {t("programme.membership_link")}
              </Link>
            </p>
          ) : application?.status === "pending" ? (
            <p className="notice" role="status">
              {t("programme.applied_pending", {
                criteria: (application.reason ?? "")
                  .split(",")
                  .filter(Boolean)
                  .map((key) => criterionName(key, path.criteria.find((c) => c.key === key)?.required ?? 0))
                  .join(locale === "en" ? "; " : "；"),
              })}
            </p>
          ) : application?.status === "rejected" ? (
            <>
              <p className="notice" data-testid="application-rejected">
                {t("programme.applied_rejected", { reason: application.reason ?? "" })}
              </p>
              {applyForm}
            </>
          ) : (
            applyForm
          )}
        </section>
      ))}
    </section>
  );
}
