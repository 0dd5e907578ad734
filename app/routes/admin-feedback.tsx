import { data } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/admin-feedback";
import { assertFormCsrf, getAppContext, readForm, requireViewer } from "../lib/context.server.ts";
import { withFormToken } from "../lib/circle-pages.server.ts";
import { refusedForm, statusFilter } from "../lib/site-pages.server.ts";
import { translator } from "../../common/i18n.ts";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { dispatchIntent, formAction } from "../../server/lib/operation.ts";
import { presentFeedback, setFeedbackStatusOperation } from "../../features/feedback/operations.ts";
import { listAllFeedback } from "../../features/feedback/service.ts";
import { feedbackStatuses, type FeedbackStatus } from "../../features/feedback/constants.ts";
import { AdminReviewList } from "../components/admin-review-list.tsx";
import "../lib/site-pages-catalog.ts";
import { sitePagesStylesheets } from "../lib/site-pages-styles.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "sitepages:admin_feedback.title");
export const links = () => sitePagesStylesheets;
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

const filters = [...feedbackStatuses, "all"] as const;

/** `/admin/feedback`: everyone's feedback for site admins (`npm run admin -- set-site-role <username> admin`); others 403, visitors sign in. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  const status = statusFilter<FeedbackStatus | "all">(request, filters, "new");
  const rows = await listAllFeedback(app.db, viewer, status);
  return withFormToken(app, { status, feedback: rows.map(presentFeedback) });
}

/** `intent=status` (`feedback_id`, `status`, `reply`): the operation of `POST /api/admin/feedback/{id}/status/`. */
export async function action({ context, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const t = translator(app.locale);
  return dispatchIntent(
    { app, request, form, params: {} },
    {
      status: formAction(setFeedbackStatusOperation, {
        params: ({ form }) => ({ id: form.get("feedback_id") }),
        done: (answer) =>
          data({ notice: t("sitepages:admin_feedback.saved", { status: t(`sitepages:feedback.statuses.${answer.status}`) }) }),
        failed: (failure) => refusedForm(failure, {}),
        errorScreen: (error) => error.status === 401,
      }),
    },
  );
}

export default function AdminFeedback({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("sitepages");
  const locale = i18n.language as Locale;
  const failure = actionData && "values" in actionData ? actionData : undefined;
  return (
    <AdminReviewList
      reasonLabel={t("admin_feedback.reason")}
      name="admin-feedback"
      title={t("admin_feedback.title")}
      filterLabel={t("admin_feedback.filter")}
      filters={filters.map((filter) => ({
        value: filter,
        label: filter === "all" ? t("admin_feedback.all") : t(`feedback.statuses.${filter}`),
      }))}
      current={loaderData.status}
      path={localizePath("/admin/feedback", locale)}
      notice={actionData && "notice" in actionData ? actionData.notice : null}
      error={failure ? (failure.formError ?? Object.values(failure.fieldErrors)[0]) : undefined}
      emptyText={t("admin_feedback.none")}
      items={loaderData.feedback}
      itemTestId={(item) => `admin-feedback-${item.id}`}
      describe={(item) => (
        <>
          <p className="site-meta">
            <strong>{t(`feedback.categories.${item.category}`)}</strong> ·{" "}
            {t("admin_feedback.from", {
              username: item.username,
              time: formatDate(item.created_at, locale, { dateStyle: "medium", timeStyle: "short" }),
            })}
            {item.page_path ? <> · {t("admin_feedback.page", { path: item.page_path })}</> : null}
          </p>
          <p className="preserve-lines">{item.message}</p>
        </>
      )}
      csrfToken={loaderData.csrfToken}
      intent="status"
      idField="feedback_id"
      controls={(item) => (
        <>
          <label>
            {t("admin_feedback.status")}{" "}
            <select name="status" className="native-select" defaultValue={item.status}>
              {feedbackStatuses.map((status) => (
                <option key={status} value={status}>
                  {t(`feedback.statuses.${status}`)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t("admin_feedback.reply")} <input name="reply" className="text-input" maxLength={1000} defaultValue={item.reply} />
          </label>
          <button type="submit" className="button">
            {t("admin_feedback.save")}
          </button>
        </>
      )}
    />
  );
}
