import { useEffect, useState, type ComponentType } from "react";
import { useTranslation } from "../lib/i18n.tsx";
import type ShareActionsType from "./share-actions.tsx";

/**
 * Share: a disclosure (works without JavaScript) with the page's link to select and a QR code of
 * it for phones; with JavaScript, opening it loads the copy and share buttons (share-actions.tsx).
 * Copying or sharing counts once per visitor and day (`POST /api/subjects/{type}/{id}/share/`).
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
  const [Actions, setActions] = useState<{ component: ComponentType<Parameters<typeof ShareActionsType>[0]> } | null>(null);
  const [shares, setShares] = useState(count);
  const [url, setUrl] = useState(path);
  useEffect(() => setUrl(new URL(path, window.location.origin).href), [path]);
  useEffect(() => setShares(count), [count]);
  const opened = (event: React.SyntheticEvent<HTMLDetailsElement>) => {
    if (!event.currentTarget.open || Actions) return;
    void import("./share-actions.tsx").then((module) => setActions({ component: module.default }));
  };
  return (
    <details className="share-panel" data-testid="share" onToggle={opened}>
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
        {Actions ? (
          <Actions.component subjectType={subjectType} subjectId={subjectId} url={url} title={title} onCounted={setShares} />
        ) : null}
        <figure className="share-qr">
          <img src={`/api/qr.svg?path=${encodeURIComponent(path)}`} alt={t("share.qr_alt")} width={168} height={168} loading="lazy" />
          <figcaption className="muted">{t("share.qr")}</figcaption>
        </figure>
      </div>
    </details>
  );
}
