import { Form, Link, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/feedback";
import { assertFormCsrf, getAppContext, here, readForm } from "../lib/context.server.ts";
import { withFormToken } from "../lib/circle-pages.server.ts";
import { formValues, refusedForm } from "../lib/site-pages.server.ts";
import { formatDate, localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { dispatchIntent, formAction } from "../../server/lib/operation.ts";
import { presentFeedback, sendFeedbackOperation } from "../../features/feedback/operations.ts";
import { listOwnFeedback } from "../../features/feedback/service.ts";
import { feedbackCategories } from "../../features/feedback/constants.ts";
import { can } from "../../features/feedback/policy.ts";
import { loadSiteRole } from "../../features/accounts/site-role.ts";
import { FormField, describedBy } from "../components/form-field.tsx";
import { FormAlert } from "../components/circle-settings-layout.tsx";
import "../lib/site-pages-catalog.ts";
import { sitePagesStylesheets } from "../lib/site-pages-styles.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "sitepages:feedback.title");
export const links = () => sitePagesStylesheets;
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * `/feedback`: visitors read what it is for and are asked to sign in (the page is the same for all
 * of them, so it is cached); a signed-in user sends feedback and follows the status of their own.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  if (!app.viewer) return { signedIn: false as const };
  const [mine, role] = await Promise.all([listOwnFeedback(app.db, app.viewer), loadSiteRole(app.db, app.viewer.id)]);
  return withFormToken(app, {
    signedIn: true as const,
    mine: mine.map(presentFeedback),
    admin: can(app.viewer, "manage", role),
    sent: pageUrl(request.url).searchParams.get("sent") === "1",
  });
}

/** `intent=send`: the operation of `POST /api/feedback/`; without JavaScript back here with `?sent=1`. */
export async function action({ context, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const values = formValues(form, ["category", "message", "page_path"]);
  return dispatchIntent(
    { app, request, form, params: {} },
    {
      send: formAction(sendFeedbackOperation, {
        done: () => redirect(`${here(app, "/feedback")}?sent=1`, 303),
        failed: (failure) => refusedForm(failure, values),
      }),
    },
  );
}

export default function Feedback({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("sitepages");
  const locale = i18n.language as Locale;
  const failure = actionData && "values" in actionData ? actionData : undefined;
  const errors = failure?.fieldErrors ?? {};
  return (
    <section className="panel" aria-labelledby="feedback-title">
      <h1 id="feedback-title" className="page-title">
        {t("feedback.title")}
      </h1>
      <p>{t("feedback.intro")}</p>
      {!loaderData.signedIn ? (
        <p data-testid="feedback-sign-in">
          {t("feedback.sign_in")}{" "}
          <Link to={`${localizePath("/login", locale)}?next=${encodeURIComponent(localizePath("/feedback", locale))}`}>
            {t("feedback.sign_in_link")}
          </Link>
        </p>
      ) : (
        <>
          {loaderData.sent ? (
            <p className="notice" role="status" data-testid="feedback-sent">
              {t("feedback.sent")}
            </p>
          ) : null}
          {loaderData.admin ? (
            <p>
              <Link to={localizePath("/admin/feedback", locale)}>{t("feedback.admin_link")}</Link>
            </p>
          ) : null}
          <Form method="post" className="stack-form" data-testid="feedback-form">
            <input type="hidden" name="csrftoken" value={loaderData.csrfToken} />
            <input type="hidden" name="intent" value="send" />
            <FormAlert message={failure?.formError} />
            <FormField id="feedback-category" label={t("feedback.category")} error={errors.category}>
              <select
                id="feedback-category"
                name="category"
                className="text-input"
                defaultValue={failure?.values.category || "suggestion"}
                {...describedBy("feedback-category", errors.category)}
              >
                {feedbackCategories.map((category) => (
                  <option key={category} value={category}>
                    {t(`feedback.categories.${category}`)}
                  </option>
                ))}
              </select>
            </FormField>
            <FormField id="feedback-message" label={t("feedback.message")} error={errors.message} hint={t("feedback.message_hint")}>
              <textarea
                id="feedback-message"
                name="message"
                className="text-input"
                rows={6}
                maxLength={2000}
                required
                defaultValue={failure?.values.message}
                {...describedBy("feedback-message", errors.message, t("feedback.message_hint"))}
              />
            </FormField>
            <FormField id="feedback-page" label={t("feedback.page")} error={errors.page_path} hint={t("feedback.page_hint")}>
              <input
                id="feedback-page"
                name="page_path"
                className="text-input"
                maxLength={300}
                defaultValue={failure?.values.page_path}
                {...describedBy("feedback-page", errors.page_path, t("feedback.page_hint"))}
              />
            </FormField>
            <p className="form-hint">{t("feedback.rate_note")}</p>
            <div className="form-actions">
              <button type="submit" className="button button-primary" data-testid="feedback-submit">
                {t("feedback.submit")}
              </button>
            </div>
          </Form>
          <h2>{t("feedback.mine")}</h2>
          {loaderData.mine.length === 0 ? (
            <p>{t("feedback.none")}</p>
          ) : (
            <ul className="site-list" data-testid="feedback-mine">
              {loaderData.mine.map((item) => (
                <li key={item.id} className="feedback-item" data-testid={`feedback-${item.id}`}>
                  <p>
                    <strong>{t(`feedback.categories.${item.category}`)}</strong> ·{" "}
                    {t("feedback.sent_at", { time: formatDate(item.created_at, locale, { dateStyle: "medium", timeStyle: "short" }) })} ·{" "}
                    {t("feedback.status_label")}: <span data-testid="feedback-status">{t(`feedback.statuses.${item.status}`)}</span>
                  </p>
                  <p className="preserve-lines">{item.message}</p>
                  {item.reply ? (
                    <p>
                      {t("feedback.reply")}: <span className="preserve-lines">{item.reply}</span>
                    </p>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
