import { useEffect } from "react";
import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { localizePath, type Locale } from "../../common/locale.ts";
import { useSession, useSessionStore } from "../lib/session-store.ts";

/** An answer, reply, mention or private message that arrived live: a toast with its link, gone after 8 s or when dismissed. */
export function LiveToast() {
  const { t, i18n } = useTranslation("common");
  const { toast } = useSession();
  const store = useSessionStore();
  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => store.dismissToast(), 8_000);
    return () => clearTimeout(timer);
  }, [toast, store]);
  return (
    <div className="live-toast-region" role="status" aria-live="polite">
      {toast ? (
        <div className="live-toast" data-testid="live-toast">
          <span>{t(`live.toast_${toast.category}`, { name: toast.actor })}</span>{" "}
          <Link to={localizePath(toast.url, i18n.language as Locale)} onClick={() => store.dismissToast()}>
            {toast.title || t("live.toast_image")}
          </Link>
          <button type="button" className="live-toast-close" aria-label={t("live.dismiss")} onClick={() => store.dismissToast()}>
            ×
          </button>
        </div>
      ) : null}
    </div>
  );
}
