import { Form, Link, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/trade-progress";
import { getAppContext, requireViewer, signedInFormPost } from "../lib/context.server.ts";
import { withFormToken } from "../lib/circle-pages.server.ts";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { idFromText } from "../../common/id.ts";
import { AppError } from "../../common/app-error.ts";
import { pageMeta } from "../lib/meta.ts";
import { dispatchIntent, formAction, type FormFailure } from "../../server/lib/operation.ts";
import {
  approveWorkOperation,
  disputeOperation,
  presentProgress,
  rejectWorkOperation,
  submitWorkOperation,
} from "../../features/trade/operations.ts";
import { getProgress } from "../../features/trade/queries.ts";
import { Amount } from "../components/coins.tsx";
import "../lib/trade-catalog.ts";
import "../../common/i18n-forms.ts";
import walletStyles from "../styles/wallet.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "trade:progress.record_title");
export const links = () => [{ rel: "stylesheet", href: walletStyles }];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** `/trade/missions/progress/{id}`: one record (the task, the submission, the review and its history), with the step each party may take. */
export async function loader({ context, params }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  const id = idFromText(params.progressId);
  if (id === null) throw new AppError("not_found");
  const record = presentProgress(await getProgress(app.db, viewer, id), app.locale);
  return withFormToken(app, { record, role: record.worker.id === viewer.id ? ("worker" as const) : ("poster" as const) });
}

export async function action(args: Route.ActionArgs) {
  const post = await signedInFormPost(args);
  const params = () => ({ id: args.params.progressId });
  const done = () => redirect(localizePath(`/trade/missions/progress/${args.params.progressId}`, post.app.locale), 303);
  const failed = (failure: FormFailure) => ({ error: failure.formError ?? Object.values(failure.fieldErrors ?? {})[0] });
  return dispatchIntent(post, {
    submit: formAction(submitWorkOperation, { params, body: (form) => ({ content: String(form.get("content") ?? "") }), done, failed }),
    approve: formAction(approveWorkOperation, { params, body: () => ({}), done, failed }),
    reject: formAction(rejectWorkOperation, { params, body: (form) => ({ reason: String(form.get("reason") ?? "") }), done, failed }),
    dispute: formAction(disputeOperation, { params, body: () => ({}), done, failed }),
  });
}

export default function TradeProgress({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("trade");
  const locale = i18n.language as Locale;
  const { record, role, csrfToken } = loaderData;
  const answer = actionData as { error?: string } | undefined;
  const path = localizePath(`/trade/missions/progress/${record.id}`, locale);
  const when = (date: string) => formatDate(date, locale, { dateStyle: "medium", timeStyle: "short" });
  const intent = (name: string) => (
    <>
      <input type="hidden" name="csrftoken" value={csrfToken} />
      <input type="hidden" name="intent" value={name} />
    </>
  );
  return (
    <section className="panel" aria-labelledby="record-title">
      <p>
        <Link to={localizePath("/trade/missions/progress", locale)}>{t("progress.title")}</Link>
      </p>
      <h1 id="record-title" className="page-title">
        {t("progress.record_title")}
      </h1>
      <p>
        {t("progress.task")}: <Link to={localizePath(`/trade/missions/${record.mission_id}`, locale)}>{record.title}</Link>{" "}
        <Amount value={record.reward} currency="sinecoin" />
      </p>
      <p>
        {t("progress.worker", { name: record.worker.name })} · <strong data-testid="record-status">{t(`state.${record.status}`)}</strong>
      </p>
      <h2>{t("progress.submission")}</h2>
      {record.content ? (
        <div style={{ whiteSpace: "pre-wrap" }} data-testid="submission">
          {record.content}
        </div>
      ) : (
        <p className="muted">{t("progress.no_submission")}</p>
      )}
      {record.reason ? <p>{t("progress.review_reason", { reason: record.reason })}</p> : null}
      {record.auto_approved ? <p className="muted">{t("progress.auto")}</p> : null}
      {record.disputed ? <p className="notice">{t("progress.disputed")}</p> : null}
      {answer?.error ? (
        <p className="form-error" role="alert">
          {answer.error}
        </p>
      ) : null}
      {role === "worker" && record.status === "accepted" ? (
        <Form method="post" action={path} className="wallet-form" id="submit-form">
          {intent("submit")}
          <label>
            {t("progress.content")}
            <textarea name="content" required rows={6} />
          </label>
          <button type="submit" className="button button-primary">
            {t("progress.submit")}
          </button>
        </Form>
      ) : null}
      {role === "worker" && record.status === "rejected" && !record.disputed ? (
        <Form method="post" action={path}>
          {intent("dispute")}
          <button type="submit" className="button">
            {t("progress.dispute")}
          </button>
        </Form>
      ) : null}
      {role === "poster" && record.status === "submitted" ? (
        <>
          <Form method="post" action={path} id="approve-form">
            {intent("approve")}
            <button type="submit" className="button button-primary">
              {t("progress.approve")}
            </button>
          </Form>
          <Form method="post" action={path} className="wallet-form" id="reject-form">
            {intent("reject")}
            <label>
              {t("progress.reason")}
              <input name="reason" required maxLength={1000} />
            </label>
            <button type="submit" className="button">
              {t("progress.reject")}
            </button>
          </Form>
        </>
      ) : null}
      <h2>{t("progress.history")}</h2>
      <ul>
        <li>{t("progress.accepted_at", { date: when(record.created_at) })}</li>
        {record.submitted_at ? <li>{t("progress.submitted_at", { date: when(record.submitted_at) })}</li> : null}
        {record.reviewed_at ? <li>{t("progress.reviewed_at", { date: when(record.reviewed_at) })}</li> : null}
      </ul>
    </section>
  );
}
