import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { localizePath, type Locale } from "../../common/locale.ts";
import { ReportFields } from "./report-fields.tsx";

/**
 * The action bar's report dialog (loaded only when a reader presses Report): a plain HTML
 * `<dialog>` whose form is a fetcher's call to `/subjects/{type}/{id}/report`; it shows the
 * server's localized refusal (repeated flagging…) or the thanks, and closes on Escape or Close.
 */
export default function ReportDialog({
  subjectType,
  subjectId,
  csrfToken,
  next,
  onClose,
}: {
  subjectType: string;
  subjectId: number;
  csrfToken: string;
  next: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation("interactions");
  const locale = i18n.language as Locale;
  const fetcher = useFetcher<{ state?: unknown; error?: string }>();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  const done = fetcher.state === "idle" && fetcher.data?.state !== undefined;
  const error = fetcher.state === "idle" ? fetcher.data?.error : undefined;
  const close = (
    <button type="button" className="button" onClick={() => dialog.current?.close()} data-testid="report-close">
      {t("report.close")}
    </button>
  );
  return (
    <dialog ref={dialog} className="report-dialog" aria-labelledby="report-dialog-title" onClose={onClose} data-testid="report-dialog">
      <h2 id="report-dialog-title">{t("report.dialog_title")}</h2>
      {done ? (
        <p className="notice" role="status" data-testid="report-done">
          {t("report.done")}
        </p>
      ) : (
        <fetcher.Form method="post" action={localizePath(`/subjects/${subjectType}/${subjectId}/report`, locale)}>
          <input type="hidden" name="csrftoken" value={csrfToken} />
          <input type="hidden" name="next" value={next} />
          <ReportFields idPrefix="report-dialog" formError={error} />
          {/* Submit and Close side by side, Submit first. */}
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={fetcher.state !== "idle"} data-testid="report-submit">
              {t("report.submit")}
            </button>
            {close}
          </div>
        </fetcher.Form>
      )}
      {done ? <div className="form-actions">{close}</div> : null}
    </dialog>
  );
}
