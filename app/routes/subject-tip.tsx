import { data, Form, Link, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/subject-tip";
import { assertFormCsrf, getAppContext, readForm, requireViewer } from "../lib/context.server.ts";
import { walletPageData } from "../lib/wallet-pages.server.ts";
import { isFetcherCall } from "../lib/interaction-pages.server.ts";
import { localizePath, pageUrl, safeNextPath, stripLocale, type Locale } from "../../common/locale.ts";
import { AppError } from "../../common/app-error.ts";
import { pageMeta } from "../lib/meta.ts";
import { formAction, type FormFailure } from "../../server/lib/operation.ts";
import { presentTipper, tipOperation } from "../../features/tips/operations.ts";
import { listTippers, tippableSubject } from "../../features/tips/service.ts";
import { tipMax, tipPresets } from "../../features/tips/schema.ts";
import { AmountChoice, BalanceLine, readAmountChoice } from "../components/amount-choice.tsx";
import "../lib/wallet-catalog.ts";
import "../../common/i18n-forms.ts";
import walletStyles from "../styles/wallet.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "wallet:tip.title");
export const links = () => [{ rel: "stylesheet", href: walletStyles }];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

function subjectId(raw: string): number {
  if (!/^\d{1,9}$/.test(raw)) throw new AppError("not_found");
  return Number(raw);
}

/**
 * `/subjects/{type}/{id}/tip`: the tip form of a writing, an answer or a book, with who tipped
 * already; a plain form (no script), back to the subject's page after. With JavaScript the
 * action bar's Tip opens the tip dialog instead, which reads this loader and posts to this action.
 */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  requireViewer(app);
  const subject = await tippableSubject(app.db, app.viewer, params.type, subjectId(params.id));
  const list = await listTippers(app.db, subject.type, subject.id);
  const url = pageUrl(request.url);
  const next = safeNextPath(url.searchParams.get("next"));
  return walletPageData(app, {
    subject: { type: subject.type, id: subject.id, title: subject.title, own: subject.authorId === app.viewer!.id },
    back: next ? stripLocale(next) : subject.path,
    done: url.searchParams.get("done") === "1",
    tipCount: list.count,
    tippers: list.tippers.map(presentTipper),
    presets: [...tipPresets],
    max: tipMax,
  });
}

interface TipAnswer {
  error?: string;
  code?: string;
  choice?: string;
  custom?: string;
  message?: string;
}

/**
 * The tip, by the operation of `POST /api/subjects/{type}/{id}/tips/`: with JavaScript (the tip
 * dialog's fetcher) the operation's answer as `{ state }` or the refusal; without it back here
 * with `?done=1`, or the form again with the message.
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  requireViewer(app);
  const fetcher = isFetcherCall(request);
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const { choice, custom, amount } = readAmountChoice(form);
  const message = String(form.get("message") ?? "");
  const next = form.get("next");
  const back = safeNextPath(typeof next === "string" ? next : null);
  const tip = formAction(tipOperation, {
    params: () => ({ type: params.type, id: params.id }),
    body: () => ({ amount, ...(message.trim() ? { message } : {}) }),
    done: (answer) => {
      if (fetcher) return data({ state: answer });
      const query = new URLSearchParams({ done: "1", ...(back ? { next: stripLocale(back) } : {}) });
      return redirect(`${localizePath(`/subjects/${params.type}/${params.id}/tip`, app.locale)}?${query}`, 303);
    },
    failed: (failure: FormFailure) =>
      data<TipAnswer>(
        {
          error: failure.formError ?? Object.values(failure.fieldErrors ?? {})[0],
          code: failure.code,
          choice,
          custom,
          message,
        },
        { status: failure.status },
      ),
  });
  return tip({ app, request, form, params });
}

export default function SubjectTip({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("wallet");
  const locale = i18n.language as Locale;
  const { subject, back, done, tipCount, tippers, presets, max, wallet, csrfToken, idempotencyKey } = loaderData;
  const answer = actionData as TipAnswer | undefined;
  const choice = answer?.choice ?? "5";
  const path = localizePath(`/subjects/${subject.type}/${subject.id}/tip`, locale);
  return (
    <section className="panel cashier" aria-labelledby="tip-title">
      <h1 id="tip-title" className="page-title">
        {t("tip.title")}
      </h1>
      <p>
        <Link to={localizePath(back, locale)}>{subject.title}</Link>
      </p>
      <p data-testid="tip-count">{t("tip.count", { count: tipCount })}</p>
      {tippers.length > 0 ? (
        <ul className="wallet-links" aria-label={t("tip.tippers")} data-testid="tippers">
          {tippers.map((tipper) => (
            <li key={tipper.username} className="recharge-option">
              <img className="feed-avatar" src={tipper.avatar} alt="" width={22} height={22} loading="lazy" />
              <Link to={localizePath(`/profile/${tipper.username}`, locale)}>{tipper.nickname || tipper.username}</Link>
            </li>
          ))}
        </ul>
      ) : null}
      {done ? (
        <p className="notice" role="status">
          {t("tip.done")}
        </p>
      ) : null}
      <BalanceLine label={t("recharge.balance")} value={wallet.sinecoin} />
      {subject.own ? null : (
        <Form method="post" action={`${path}?${new URLSearchParams({ next: back })}`} className="wallet-form" id="tip-form">
          <input type="hidden" name="csrftoken" value={csrfToken} />
          <input type="hidden" name="idempotency_key" value={idempotencyKey} />
          <input type="hidden" name="next" value={back} />
          <AmountChoice
            legend={t("tip.amount")}
            customLabel={t("tip.custom")}
            presets={presets}
            choice={choice}
            custom={answer?.custom}
            min={1}
            max={max}
          />
          <label>
            {t("tip.message")}
            <textarea name="message" rows={2} maxLength={200} defaultValue={answer?.message} />
          </label>
          {answer?.error ? (
            <p className="form-error" role="alert">
              {answer.error}{" "}
              {answer.code === "insufficient_balance" ? (
                <Link to={localizePath("/wallet/sinecoin_recharge", locale)}>{t("tip.recharge")}</Link>
              ) : null}
            </p>
          ) : null}
          <p>
            <button type="submit" className="button button-primary">
              {t("tip.submit")}
            </button>
          </p>
        </Form>
      )}
    </section>
  );
}
