import { useTranslation } from "../lib/i18n.tsx";
import { formatDate, type Locale } from "../../common/locale.ts";
import type { AutosaveStatus, DraftSnapshot, DraftVersion } from "../lib/use-draft-autosave.ts";
import "../lib/editor-catalog.ts";

/**
 * The editors' draft conflict (the writing editor, the ask page): another tab or device saved the
 * draft in between; the writer keeps theirs or takes the saved one.
 */
export function DraftConflict({
  status,
  onKeepMine,
  onTakeTheirs,
}: {
  status: { current: DraftVersion; yours: DraftSnapshot };
  onKeepMine: () => void;
  onTakeTheirs: (current: DraftVersion) => void;
}) {
  const { t } = useTranslation("editor");
  return (
    <section className="panel editor-conflict" role="alert" data-testid="draft-conflict">
      <h2>{t("editor.conflict_title")}</h2>
      <p>{t("editor.conflict_text")}</p>
      <div className="editor-conflict-versions">
        <div>
          <h3>{t("editor.mine")}</h3>
          <pre className="editor-conflict-text">{status.yours.body}</pre>
          <button type="button" className="button button-primary" onClick={onKeepMine}>
            {t("editor.keep_mine")}
          </button>
        </div>
        <div>
          <h3>{t("editor.theirs")}</h3>
          <pre className="editor-conflict-text">{status.current.body}</pre>
          <button type="button" className="button" onClick={() => onTakeTheirs(status.current)}>
            {t("editor.take_theirs")}
          </button>
        </div>
      </div>
    </section>
  );
}

const timeOnly: Intl.DateTimeFormatOptions = { timeStyle: "short" };

/** What the draft's autosave is doing ("Saving…", "Saved at 10:42", the failure), announced politely. */
export function AutosaveStatusText({ status, savedAt }: { status: AutosaveStatus; savedAt?: string | null }) {
  const { t, i18n } = useTranslation("editor");
  const locale = i18n.language as Locale;
  return (
    <span className="muted" role="status" aria-live="polite" data-testid="autosave-status" data-state={status.state}>
      {status.state === "saving"
        ? t("editor.saving")
        : status.state === "saved"
          ? t("editor.saved", { time: formatDate(status.at, locale, timeOnly) })
          : status.state === "failed"
            ? (status.message ?? t("editor.save_failed"))
            : savedAt
              ? t("editor.saved", { time: formatDate(savedAt, locale, timeOnly) })
              : ""}
    </span>
  );
}
