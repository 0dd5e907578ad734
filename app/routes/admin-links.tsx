import { data } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/admin-links";
import { assertFormCsrf, getAppContext, readForm, requireViewer } from "../lib/context.server.ts";
import { withFormToken } from "../lib/circle-pages.server.ts";
import { refusedForm, statusFilter } from "../lib/site-pages.server.ts";
import { translator } from "../../common/i18n.ts";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { dispatchIntent, formAction } from "../../server/lib/operation.ts";
import { presentLink, reviewLinkOperation } from "../../features/links/operations.ts";
import { listLinksForReview } from "../../features/links/service.ts";
import { linkStatuses, type LinkStatus } from "../../features/links/constants.ts";
import { AdminReviewList } from "../components/admin-review-list.tsx";
import "../lib/site-pages-catalog.ts";
import { sitePagesStylesheets } from "../lib/site-pages-styles.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "sitepages:admin_links.title");
export const links = () => sitePagesStylesheets;
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

const filters = [...linkStatuses, "all"] as const;

/** `/admin/links`: friend link suggestions for site moderators and admins, like `/admin/reports`; others 403, visitors sign in. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  const status = statusFilter<LinkStatus | "all">(request, filters, "pending");
  const rows = await listLinksForReview(app.db, viewer, status);
  return withFormToken(app, { status, links: rows.map(presentLink) });
}

/** `intent=review` (`link_id`, `decision`, `note`): the operation of `POST /api/admin/links/{id}/review/`. */
export async function action({ context, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const t = translator(app.locale);
  return dispatchIntent(
    { app, request, form, params: {} },
    {
      review: formAction(reviewLinkOperation, {
        params: ({ form }) => ({ id: form.get("link_id") }),
        done: (answer) =>
          data({ notice: t(answer.status === "approved" ? "sitepages:admin_links.approved" : "sitepages:admin_links.rejected") }),
        failed: (failure) => refusedForm(failure, {}),
        errorScreen: (error) => error.status === 401,
      }),
    },
  );
}

export default function AdminLinks({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("sitepages");
  const locale = i18n.language as Locale;
  const failure = actionData && "values" in actionData ? actionData : undefined;
  return (
    <AdminReviewList
      reasonLabel={t("admin_links.reason")}
      name="admin-links"
      title={t("admin_links.title")}
      filterLabel={t("admin_links.filter")}
      filters={filters.map((filter) => ({
        value: filter,
        label: filter === "all" ? t("admin_links.all") : t(`link.statuses.${filter}`),
      }))}
      current={loaderData.status}
      path={localizePath("/admin/links", locale)}
      notice={actionData && "notice" in actionData ? actionData.notice : null}
      error={failure ? (failure.formError ?? Object.values(failure.fieldErrors)[0]) : undefined}
      emptyText={t("admin_links.none")}
      items={loaderData.links}
      itemTestId={(link) => `admin-link-${link.id}`}
      describe={(link) => {
        const time = formatDate(link.created_at, locale, { dateStyle: "medium", timeStyle: "short" });
        return (
          <>
            <p>
              <strong>{link.name}</strong> · <span className="site-meta">{link.url}</span> · {t(`link.languages.${link.language}`)} ·{" "}
              {t(`link.statuses.${link.status}`)}
            </p>
            {link.description ? <p className="preserve-lines">{link.description}</p> : null}
            <p className="site-meta">
              {link.suggested_by
                ? t("admin_links.suggested_by", { username: link.suggested_by, time })
                : t("admin_links.by_staff", { time })}
            </p>
          </>
        );
      }}
      csrfToken={loaderData.csrfToken}
      intent="review"
      idField="link_id"
      controls={(link) => (
        <>
          <label>
            {t("admin_links.note")} <input name="note" className="text-input" maxLength={500} defaultValue={link.review_note} />
          </label>
          <button type="submit" name="decision" value="approve" className="button button-primary">
            {t("admin_links.approve")}
          </button>
          <button type="submit" name="decision" value="reject" className="button">
            {t("admin_links.reject")}
          </button>
        </>
      )}
    />
  );
}
