import { Form, Link, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/trade-mission";
import { getAppContext, signedInFormPost } from "../lib/context.server.ts";
import { tradePageData } from "../lib/trade-pages.server.ts";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { idFromText } from "../../common/id.ts";
import { AppError } from "../../common/app-error.ts";
import { pageMeta } from "../lib/meta.ts";
import { dispatchIntent, formAction, type FormFailure } from "../../server/lib/operation.ts";
import { acceptTaskOperation, cancelTaskOperation, presentProgress, presentTask } from "../../features/trade/operations.ts";
import { getTask, listProgress } from "../../features/trade/queries.ts";
import { Amount } from "../components/coins.tsx";
import "../lib/trade-catalog.ts";
import walletStyles from "../styles/wallet.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "trade:title");
export const links = () => [{ rel: "stylesheet", href: walletStyles }];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** `/trade/missions/{id}`: one task, its slots left and Accept; its poster sees the submissions and may cancel. */
export async function loader({ context, params }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const id = idFromText(params.missionId);
  if (id === null) throw new AppError("not_found");
  const row = await getTask(app.db, app.viewer, id);
  const own = app.viewer?.id === row.posterId;
  const submissions = own
    ? (await listProgress(app.db, app.viewer!, "poster"))
        .filter((record) => record.missionId === id)
        .map((r) => presentProgress(r, app.locale))
    : [];
  return tradePageData(app, {
    task: presentTask(row, app.locale),
    mine: row.myProgress,
    own,
    signedIn: app.viewer !== null,
    submissions,
  });
}

export async function action(args: Route.ActionArgs) {
  const post = await signedInFormPost(args);
  const params = () => ({ id: args.params.missionId });
  const failed = (failure: FormFailure) => ({ error: failure.formError ?? Object.values(failure.fieldErrors ?? {})[0] });
  return dispatchIntent(post, {
    accept: formAction(acceptTaskOperation, {
      params,
      body: () => ({}),
      done: (answer) => redirect(localizePath(`/trade/missions/progress/${answer.progress_id}`, post.app.locale), 303),
      failed,
    }),
    cancel: formAction(cancelTaskOperation, {
      params,
      done: () => redirect(localizePath(`/trade/missions/${args.params.missionId}`, post.app.locale), 303),
      failed,
    }),
  });
}

export default function TradeMission({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("trade");
  const locale = i18n.language as Locale;
  const { task, mine, own, signedIn, submissions, csrfToken } = loaderData;
  const answer = actionData as { error?: string } | undefined;
  const path = localizePath(`/trade/missions/${task.id}`, locale);
  return (
    <section className="panel" aria-labelledby="task-title">
      <p>
        <Link to={localizePath("/trade", locale)}>{t("title")}</Link>
      </p>
      <h1 id="task-title" className="page-title">
        {task.title}
      </h1>
      <p>
        {t("reward")}: <Amount value={task.reward} currency="sinecoin" /> ·{" "}
        <span data-testid="task-status">{t(`status.${task.status}`)}</span>
      </p>
      <p className="muted">
        {t("posted_by", { name: task.poster.name, circle: task.circle.name })} ·{" "}
        {t("deadline", { date: formatDate(task.deadline, locale, { dateStyle: "medium", timeStyle: "short" }) })}
      </p>
      <p data-testid="slots-left">{t("slots_left", { left: task.slots_left, slots: task.slots })}</p>
      <div style={{ whiteSpace: "pre-wrap" }}>{task.description}</div>
      {answer?.error ? (
        <p className="form-error" role="alert">
          {answer.error}
        </p>
      ) : null}
      {mine ? (
        <p>
          {t("task.mine", { status: t(`state.${mine.status}`) })}{" "}
          <Link to={localizePath(`/trade/missions/progress/${mine.id}`, locale)}>{t("task.open_record")}</Link>
        </p>
      ) : null}
      {!own && !mine && task.status === "open" ? (
        signedIn ? (
          <Form method="post" action={path}>
            <input type="hidden" name="csrftoken" value={csrfToken} />
            <input type="hidden" name="intent" value="accept" />
            <button type="submit" className="button button-primary">
              {t("task.accept")}
            </button>
          </Form>
        ) : (
          <p>
            <Link to={`${localizePath("/login", locale)}?next=${encodeURIComponent(path)}`}>{t("task.accept")}</Link>
          </p>
        )
      ) : null}
      {own ? (
        <>
          <p className="muted">{t("task.own")}</p>
          <h2>{t("task.submissions")}</h2>
          {submissions.length === 0 ? <p className="muted">{t("task.no_submissions")}</p> : null}
          <ul className="movement-list" data-testid="submissions">
            {submissions.map((record) => (
              <li key={record.id}>
                <Link to={record.url}>{t("progress.worker", { name: record.worker.name })}</Link> · {t(`state.${record.status}`)}
              </li>
            ))}
          </ul>
          {task.status === "open" ? (
            <Form method="post" action={path}>
              <input type="hidden" name="csrftoken" value={csrfToken} />
              <input type="hidden" name="intent" value="cancel" />
              <p className="muted">{t("task.cancel_note")}</p>
              <button type="submit" className="button">
                {t("task.cancel")}
              </button>
            </Form>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
