import { Form, Link, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/trade";
import { getAppContext, signedInFormPost } from "../lib/context.server.ts";
import { tradeCircles, tradePageData } from "../lib/trade-pages.server.ts";
import { formatDate, localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { dispatchIntent, formAction, type FormFailure } from "../../server/lib/operation.ts";
import { postTaskOperation, presentTask, taskListQuerySchema } from "../../features/trade/operations.ts";
import { listTasks } from "../../features/trade/queries.ts";
import { Amount } from "../components/coins.tsx";
import "../lib/trade-catalog.ts";
import "../../common/i18n-forms.ts";
import walletStyles from "../styles/wallet.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "trade:title");
export const links = () => [{ rel: "stylesheet", href: walletStyles }];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** `/trade`: open tasks (filters: circle, minimum reward, deadline within days; sorts: newest, reward, deadline) and the form to post one. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const search = Object.fromEntries(pageUrl(request.url).searchParams);
  const parsed = taskListQuerySchema.safeParse(search);
  const query = parsed.success ? parsed.data : {};
  const page = await listTasks(app.db, app.viewer, { status: "open", ...query });
  return tradePageData(app, {
    tasks: page.items.map((row) => presentTask(row, app.locale)),
    nextCursor: page.nextCursor,
    query: {
      circle_id: query.circle_id ?? null,
      sort: query.sort ?? "new",
      min_reward: query.min_reward ?? null,
      ends_within: query.ends_within ?? null,
    },
    circles: await tradeCircles(app),
    signedIn: app.viewer !== null,
  });
}

export async function action(args: Route.ActionArgs) {
  const post = await signedInFormPost(args);
  return dispatchIntent(post, {
    post: formAction(postTaskOperation, {
      body: (form) => ({
        circle_id: Number(form.get("circle_id")),
        title: String(form.get("title") ?? ""),
        description: String(form.get("description") ?? ""),
        reward: Number(form.get("reward")),
        slots: Number(form.get("slots")),
        // The form's local time is Asia/Shanghai (UTC+8, no daylight saving).
        deadline: form.get("deadline") ? `${String(form.get("deadline"))}:00+08:00` : "",
      }),
      done: (answer) => redirect(localizePath(`/trade/missions/${answer.id}`, post.app.locale), 303),
      failed: (failure: FormFailure) => ({ error: failure.formError ?? Object.values(failure.fieldErrors ?? {})[0], code: failure.code }),
    }),
  });
}

export default function Trade({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("trade");
  const locale = i18n.language as Locale;
  const { tasks, nextCursor, query, circles, signedIn, wallet, csrfToken, idempotencyKey } = loaderData;
  const answer = actionData as { error?: string } | undefined;
  const path = localizePath("/trade", locale);
  const more = new URLSearchParams({
    ...(query.circle_id ? { circle_id: String(query.circle_id) } : {}),
    ...(query.min_reward ? { min_reward: String(query.min_reward) } : {}),
    ...(query.ends_within ? { ends_within: String(query.ends_within) } : {}),
    sort: query.sort,
    cursor: nextCursor ?? "",
  });
  return (
    <>
      <section className="panel" aria-labelledby="trade-title">
        <h1 id="trade-title" className="page-title">
          {t("title")}
        </h1>
        <p className="muted">{t("intro")}</p>
        {signedIn ? (
          <p className="wallet-links">
            <Link to={localizePath("/trade/missions/me/accept", locale)}>{t("progress.accepted_title")}</Link>{" "}
            <Link to={localizePath("/trade/missions/progress", locale)}>{t("progress.title")}</Link>{" "}
            <Link to={localizePath("/trade/missions/me/reward", locale)}>{t("progress.reward_title")}</Link>
          </p>
        ) : null}
        <Form method="get" action={path} className="wallet-form" aria-label={t("filters.apply")}>
          <label>
            {t("filters.circle")}
            <select name="circle_id" defaultValue={query.circle_id ?? ""}>
              <option value="">{t("filters.all_circles")}</option>
              {circles.map((circle) => (
                <option key={circle.id} value={circle.id}>
                  {circle.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t("filters.min_reward")}
            <input type="number" name="min_reward" min={0} defaultValue={query.min_reward ?? ""} />
          </label>
          <label>
            {t("filters.ends_within")}
            <select name="ends_within" defaultValue={query.ends_within ?? ""}>
              <option value="">{t("filters.any_deadline")}</option>
              {[1, 3, 7, 30].map((days) => (
                <option key={days} value={days}>
                  {t("filters.within_days", { count: days })}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t("filters.sort")}
            <select name="sort" defaultValue={query.sort}>
              <option value="new">{t("filters.sort_new")}</option>
              <option value="reward">{t("filters.sort_reward")}</option>
              <option value="deadline">{t("filters.sort_deadline")}</option>
            </select>
          </label>
          <button type="submit" className="button">
            {t("filters.apply")}
          </button>
        </Form>
        {tasks.length === 0 ? <p className="muted">{t("empty")}</p> : null}
        <ul className="movement-list" data-testid="tasks">
          {tasks.map((task) => (
            <li key={task.id}>
              <Link to={task.url}>{task.title}</Link> <Amount value={task.reward} currency="sinecoin" />{" "}
              <span className="muted">
                {t("slots_left", { left: task.slots_left, slots: task.slots })} ·{" "}
                {t("deadline", { date: formatDate(task.deadline, locale, { dateStyle: "medium", timeStyle: "short" }) })} ·{" "}
                {task.circle.name}
              </span>
            </li>
          ))}
        </ul>
        {nextCursor ? (
          <p>
            <Link to={`${path}?${more}`}>{t("more")}</Link>
          </p>
        ) : null}
      </section>
      <section className="panel" aria-labelledby="trade-post-title">
        <h2 id="trade-post-title">{t("post.title")}</h2>
        {signedIn && wallet ? (
          <Form method="post" action={path} className="wallet-form" id="trade-post-form">
            <input type="hidden" name="csrftoken" value={csrfToken} />
            <input type="hidden" name="idempotency_key" value={idempotencyKey} />
            <input type="hidden" name="intent" value="post" />
            <p className="muted">{t("post.balance", { balance: wallet.sinecoin })}</p>
            <label>
              {t("filters.circle")}
              <select name="circle_id" required defaultValue={query.circle_id ?? circles[0]?.id}>
                {circles.map((circle) => (
                  <option key={circle.id} value={circle.id}>
                    {circle.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              {t("post.task_title")}
              <input name="title" required maxLength={100} />
            </label>
            <label>
              {t("post.description")}
              <textarea name="description" required rows={5} />
            </label>
            <label>
              {t("post.reward")}
              <input type="number" name="reward" required min={1} defaultValue={10} />
            </label>
            <label>
              {t("post.slots")}
              <input type="number" name="slots" required min={1} max={100} defaultValue={1} />
            </label>
            <label>
              {t("post.deadline")}
              <input type="datetime-local" name="deadline" required />
            </label>
            {answer?.error ? (
              <p className="form-error" role="alert">
                {answer.error}
              </p>
            ) : null}
            <button type="submit" className="button button-primary">
              {t("post.submit")}
            </button>
          </Form>
        ) : (
          <p>
            <Link to={`${localizePath("/login", locale)}?next=${encodeURIComponent(path)}`}>{t("post.login")}</Link>
          </p>
        )}
      </section>
    </>
  );
}
