import { useEffect, useRef, useState, type ComponentType } from "react";
import { useTranslation } from "../lib/i18n.tsx";
import type ShareActionsType from "./share-actions.tsx";

/**
 * Share: a disclosure (works without JavaScript) opening as a popover over the page (it never
 * pushes the action bar), with the page's link to select, Weibo and QQ targets, and a QR code for
 * WeChat and phones; with JavaScript, opening it loads the copy and share buttons
 * (share-actions.tsx), and a click outside or Escape closes it.
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
  const panel = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const close = (event: Event) => {
      const details = panel.current;
      if (!details?.open) return;
      if (event instanceof KeyboardEvent ? event.key === "Escape" : !details.contains(event.target as Node)) {
        details.open = false;
        if (event instanceof KeyboardEvent) details.querySelector("summary")?.focus();
      }
    };
    document.addEventListener("click", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("click", close);
      document.removeEventListener("keydown", close);
    };
  }, []);
  const shareQuery = new URLSearchParams({ url, title }).toString();
  const opened = (event: React.SyntheticEvent<HTMLDetailsElement>) => {
    if (!event.currentTarget.open || Actions) return;
    void import("./share-actions.tsx").then((module) => setActions({ component: module.default }));
  };
  return (
    <details className="share-panel" data-testid="share" onToggle={opened} ref={panel}>
      <summary className="button action-button">
        {t("share.share")} <span className="action-count">{shares}</span>
      </summary>
      <div className="share-body" role="group" aria-label={t("share.share")} data-testid="share-body">
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
        <ul className="share-targets" aria-label={t("share.targets")}>
          <li>
            <a href={`#share-qr-${subjectType}-${subjectId}`} className="share-target share-wechat" data-testid="share-wechat">
              {t("share.wechat")}
            </a>
          </li>
          {/* Weibo and QQ need the full address, known once the page runs in the browser. */}
          {/^https?:/.test(url) ? (
            <>
              <li>
                <a
                  href={`https://service.weibo.com/share/share.php?${shareQuery}`}
                  className="share-target share-weibo"
                  target="_blank"
                  rel="noopener noreferrer"
                  data-testid="share-weibo"
                >
                  {t("share.weibo")}
                </a>
              </li>
              <li>
                <a
                  href={`https://connect.qq.com/widget/shareqq/index.html?${shareQuery}`}
                  className="share-target share-qq"
                  target="_blank"
                  rel="noopener noreferrer"
                  data-testid="share-qq"
                >
                  {t("share.qq")}
                </a>
              </li>
            </>
          ) : null}
        </ul>
        <figure className="share-qr" id={`share-qr-${subjectType}-${subjectId}`}>
          <img src={`/api/qr.svg?path=${encodeURIComponent(path)}`} alt={t("share.qr_alt")} width={148} height={148} loading="lazy" />
          <figcaption className="muted">{t("share.qr")}</figcaption>
        </figure>
      </div>
    </details>
  );
}
