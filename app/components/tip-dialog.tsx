import { useEffect, useRef } from "react";
import { Link, useFetcher } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { localizePath, type Locale } from "../../common/locale.ts";
import { AmountChoice, BalanceLine } from "./amount-choice.tsx";
import type { loader as tipPageLoader } from "../routes/subject-tip.tsx";
import "../lib/wallet-catalog.ts";
import walletStyles from "../styles/wallet.css?url";

/** What the tip page's action answers a fetcher: the tip operation's answer, or its refusal. */
interface TipFetcherAnswer {
  state?: { tip_id: number; amount: number; balance: number; tip_count: number };
  error?: string;
  code?: string;
  choice?: string;
  custom?: string;
  message?: string;
}

/**
 * The action bar's tip dialog (loaded only when a reader presses Tip): a plain HTML `<dialog>`
 * that reads the tip page's loader (the subject, the reader's balance, the form's token and
 * idempotency key) and posts the same form to it as a fetcher, so the tip runs through the tip
 * operation and the reader stays where they were: the page keeps its address and scroll, the
 * balance shows what is left, and Escape or Close returns to the Tip button.
 */
export default function TipDialog({ subjectType, subjectId, onClose }: { subjectType: string; subjectId: number; onClose: () => void }) {
  const { t, i18n } = useTranslation("wallet");
  const locale = i18n.language as Locale;
  const path = localizePath(`/subjects/${subjectType}/${subjectId}/tip`, locale);
  const page = useFetcher<typeof tipPageLoader>();
  const tip = useFetcher<TipFetcherAnswer>();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  const load = page.load;
  useEffect(() => {
    void load(path);
  }, [load, path]);

  const loaded = page.data;
  const answer = tip.state === "idle" ? tip.data : undefined;
  const done = answer?.state !== undefined;
  const balance = answer?.state?.balance ?? loaded?.wallet.sinecoin;
  const close = (
    <button type="button" className="button" onClick={() => dialog.current?.close()} data-testid="tip-close">
      {t("tip.close")}
    </button>
  );
  return (
    <dialog ref={dialog} className="report-dialog tip-dialog" aria-labelledby="tip-dialog-title" onClose={onClose} data-testid="tip-dialog">
      {/* The amount cards, the labelled balance and the form's look: loaded with this dialog, never by reading pages. */}
      <link rel="stylesheet" href={walletStyles} precedence="default" />
      <h2 id="tip-dialog-title">{t("tip.title")}</h2>
      {!loaded ? (
        <p role="status">{t("tip.loading")}</p>
      ) : (
        <>
          <p className="tip-dialog-subject">{loaded.subject.title}</p>
          <p data-testid="tip-count">{t("tip.count", { count: answer?.state?.tip_count ?? loaded.tipCount })}</p>
          {balance !== undefined ? <BalanceLine label={t("recharge.balance")} value={balance} /> : null}
          {done ? (
            <p className="notice" role="status" data-testid="tip-done">
              {t("tip.done")}
            </p>
          ) : loaded.subject.own ? (
            <p>{t("tip.own")}</p>
          ) : (
            <tip.Form method="post" action={path} className="wallet-form" data-testid="tip-dialog-form">
              <input type="hidden" name="csrftoken" value={loaded.csrfToken} />
              <input type="hidden" name="idempotency_key" value={loaded.idempotencyKey} />
              <AmountChoice
                legend={t("tip.amount")}
                customLabel={t("tip.custom")}
                presets={loaded.presets}
                choice={answer?.choice ?? "5"}
                custom={answer?.custom}
                min={1}
                max={loaded.max}
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
              <div className="form-actions">
                <button type="submit" className="button button-primary" disabled={tip.state !== "idle"} data-testid="tip-submit">
                  {t("tip.submit")}
                </button>
                {close}
              </div>
            </tip.Form>
          )}
        </>
      )}
      {!loaded || done || loaded.subject.own ? <div className="form-actions">{close}</div> : null}
    </dialog>
  );
}
