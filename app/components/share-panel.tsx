import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { http } from "../lib/http.ts";

/** How long "Copied" shows after the link was copied (spec §9). */
export const copiedMs = 1_500;

/**
 * Share: a disclosure (works without JavaScript) with the page's link to select, a QR code of it for
 * phones, and with JavaScript a copy button ("Copied" for 1.5 s) and the system's share sheet where
 * the browser has one. Copying or sharing counts once per visitor and day
 * (`POST /api/subjects/{type}/{id}/share/`).
 */
export function SharePanel({
  subjectType,
  subjectId,
  path,
  title,
  count,
}: {
  subjectType: string;
  subjectId: number;
  path: string;
  title: string;
  count: number;
}) {
  const { t } = useTranslation("interactions");
  const [scripted, setScripted] = useState(false);
  const [canShare, setCanShare] = useState(false);
  const [copied, setCopied] = useState(false);
  const [shares, setShares] = useState(count);
  const [url, setUrl] = useState(path);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    setScripted(true);
    setUrl(new URL(path, window.location.origin).href);
    setCanShare(typeof navigator.share === "function");
    return () => clearTimeout(timer.current);
  }, [path]);
  useEffect(() => setShares(count), [count]);

  const counted = () => {
    http<{ share_count: number }>(`/api/subjects/${subjectType}/${subjectId}/share/`, { method: "POST", body: {} })
      .then((answer) => setShares(answer.share_count))
      .catch(() => undefined);
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), copiedMs);
    counted();
  };
  const share = async () => {
    try {
      await navigator.share({ title, url });
      counted();
    } catch {
      // Dismissed: nothing was shared.
    }
  };
  return (
    <details className="share-panel" data-testid="share">
      <summary className="button action-button">
        {t("share.share")} <span className="action-count">{shares}</span>
      </summary>
      <div className="share-body">
        <label htmlFor={`share-link-${subjectType}-${subjectId}`}>{t("share.link")}</label>
        <input
          id={`share-link-${subjectType}-${subjectId}`}
          className="text-input"
          readOnly
          value={url}
          onFocus={(event) => event.currentTarget.select()}
        />
        {scripted ? (
          <p className="share-actions">
            <button type="button" className="button" onClick={copy} data-testid="copy-link">
              {copied ? t("share.copied") : t("share.copy")}
            </button>
            {canShare ? (
              <button type="button" className="button" onClick={share}>
                {t("share.system")}
              </button>
            ) : null}
            <span role="status" className="visually-hidden">
              {copied ? t("share.copied") : ""}
            </span>
          </p>
        ) : null}
        <figure className="share-qr">
          <img src={`/api/qr.svg?path=${encodeURIComponent(path)}`} alt={t("share.qr_alt")} width={168} height={168} loading="lazy" />
          <figcaption className="muted">{t("share.qr")}</figcaption>
        </figure>
      </div>
    </details>
  );
}
