import { useEffect, useRef, useState } from "react";
import { useTranslation } from "../lib/i18n.tsx";
import { postJson } from "../lib/post-json.ts";

/** How long "Copied" shows after the link was copied (spec §9). */
export const copiedMs = 1_500;

/**
 * The share panel's buttons, loaded only when the panel is first opened (a reading page's first
 * load carries none of this): copy the link ("Copied" for 1.5 s) and the system's share sheet
 * where the browser has one. Either counts the share (once per visitor and day).
 */
export default function ShareActions({
  subjectType,
  subjectId,
  url,
  title,
  onCounted,
}: {
  subjectType: string;
  subjectId: number;
  url: string;
  title: string;
  onCounted: (count: number) => void;
}) {
  const { t } = useTranslation("interactions");
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const counted = () => {
    postJson<{ share_count: number }>(`/api/subjects/${subjectType}/${subjectId}/share/`)
      .then((answer) => answer && onCounted(answer.share_count))
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
    <p className="share-actions">
      <button type="button" className="button" onClick={copy} data-testid="copy-link">
        {copied ? t("share.copied") : t("share.copy")}
      </button>
      {typeof navigator.share === "function" ? (
        <button type="button" className="button" onClick={share}>
          {t("share.system")}
        </button>
      ) : null}
      <span role="status" className="visually-hidden">
        {copied ? t("share.copied") : ""}
      </span>
    </p>
  );
}
