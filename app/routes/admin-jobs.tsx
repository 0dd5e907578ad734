import { Form } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/admin-jobs";
import { getAppContext } from "../lib/context.server.ts";
import { jobsAction, jobsLoader } from "../lib/admin-pages.server.ts";
import { formatDate, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import "../lib/admin-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "admin:menu.jobs");

/** `/admin/jobs` (admins): every schedule with its last run, recent runs, failed jobs with retry. */
export async function loader({ context }: Route.LoaderArgs) {
  return jobsLoader(getAppContext(context));
}

export async function action({ context, request }: Route.ActionArgs) {
  return jobsAction(getAppContext(context), request);
}

export default function AdminJobs({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("admin");
  const locale = i18n.language as Locale;
  const time = (value: string) => formatDate(value, locale, { dateStyle: "medium", timeStyle: "medium" });
  const notice = actionData && "notice" in actionData ? actionData.notice : null;
  const error = actionData && "formError" in actionData ? actionData.formError : null;
  return (
    <section className="panel">
      <h1 className="page-title">{t("menu.jobs")}</h1>
      {notice ? <p role="status">{notice}</p> : null}
      {error ? <p role="alert">{error}</p> : null}
      <h2>{t("jobs.schedules")}</h2>
      <table className="admin-table">
        <thead>
          <tr>
            <th>{t("jobs.name")}</th>
            <th>{t("jobs.schedule")}</th>
            <th>{t("jobs.last_run")}</th>
          </tr>
        </thead>
        <tbody>
          {loaderData.schedules.map((schedule) => (
            <tr key={schedule.name}>
              <td>{schedule.name}</td>
              <td>
                <code>{schedule.schedule}</code>
              </td>
              <td>
                {schedule.lastRun
                  ? `${time(schedule.lastRun.startedAt)} · ${schedule.lastRun.outcome} · ${schedule.lastRun.durationMs} ms`
                  : t("jobs.never")}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>{t("jobs.failed")}</h2>
      {loaderData.failed.length === 0 ? <p>{t("jobs.none_failed")}</p> : null}
      {loaderData.failed.map((run) => (
        <Form method="post" key={run.id}>
          <input type="hidden" name="csrftoken" value={loaderData.csrfToken} />
          <input type="hidden" name="intent" value="retry" />
          <input type="hidden" name="job_id" value={run.id} />
          {run.job} · {time(run.startedAt)} · {run.error}{" "}
          <label>
            {t("users.reason")} <input name="reason" required />
          </label>{" "}
          <button type="submit">{t("jobs.retry")}</button>
        </Form>
      ))}
      <h2>{t("jobs.recent")}</h2>
      <table className="admin-table">
        <thead>
          <tr>
            <th>{t("jobs.name")}</th>
            <th>{t("users.time")}</th>
            <th>{t("jobs.duration")}</th>
            <th>{t("jobs.outcome")}</th>
            <th>{t("jobs.error")}</th>
          </tr>
        </thead>
        <tbody>
          {loaderData.recent.map((run, index) => (
            <tr key={`${run.id}-${index}`}>
              <td>{run.job}</td>
              <td>{time(run.startedAt)}</td>
              <td>{run.durationMs}</td>
              <td>{run.outcome}</td>
              <td>{run.error ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
