import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "../lib/i18n.tsx";
import { citationStyles, citeRevision, type CitationStyle, type CitedRevision } from "../../features/encyclopedia/cite.ts";

/** A cited revision as the loader sends it (dates as ISO strings). */
export type CitedRevisionData = Omit<CitedRevision, "savedAt" | "accessed"> & { savedAt: string; accessed: string };

/** How long "Copied" shows after a citation was copied (like the share panel's link). */
const copiedMs = 1_500;

/**
 * "Cite this entry": a disclosure (it opens without JavaScript) giving the current revision's
 * citation in GB/T 7714-2015, APA 7, MLA 9, BibTeX and RIS, each selectable text; with
 * JavaScript each has a copy button and today's date of access. Pure text formatting
 * (features/encyclopedia/cite.ts): no citation library in the page.
 */
export function CiteThis({ cited }: { cited: CitedRevisionData }) {
  const { t } = useTranslation("encyclopedia");
  const [hydrated, setHydrated] = useState(false);
  const [copied, setCopied] = useState<CitationStyle | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    setHydrated(true);
    return () => clearTimeout(timer.current);
  }, []);
  // The server's date of access until hydrated (the same markup), then today's: a cached page may be old.
  const citations = useMemo(
    () => citeRevision({ ...cited, savedAt: new Date(cited.savedAt), accessed: hydrated ? new Date() : new Date(cited.accessed) }),
    [cited, hydrated],
  );
  const copy = async (style: CitationStyle) => {
    try {
      await navigator.clipboard.writeText(citations[style]);
    } catch {
      return;
    }
    setCopied(style);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(null), copiedMs);
  };
  return (
    <details className="share-panel cite-this" data-testid="cite-this">
      <summary className="button action-button">{t("cite.open")}</summary>
      <div className="share-body cite-body" role="group" aria-label={t("cite.title")}>
        <p className="muted">{t("cite.help")}</p>
        {citationStyles.map((style) => (
          <div key={style} className="cite-style" data-testid={`cite-${style}`}>
            <label htmlFor={`cite-${style}`}>{t(`cite.styles.${style}`)}</label>
            <textarea
              id={`cite-${style}`}
              className="text-input cite-text"
              readOnly
              rows={style === "bibtex" || style === "ris" ? 8 : 3}
              value={citations[style]}
              onFocus={(event) => event.currentTarget.select()}
            />
            {hydrated ? (
              <button type="button" className="button" onClick={() => void copy(style)} data-testid={`cite-copy-${style}`}>
                {copied === style ? t("cite.copied") : t("cite.copy")}
              </button>
            ) : null}
          </div>
        ))}
      </div>
    </details>
  );
}
