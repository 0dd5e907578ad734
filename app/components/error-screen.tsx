import type { ReactNode } from "react";
import { useTranslation } from "../lib/i18n.tsx";
import { localeFromPath, localizePath } from "../../common/locale.ts";

interface ErrorScreenProps {
  status: number;
  /** The path that failed, shown in the details of a 404. */
  path: string;
  /** Message (and, in development, stack) revealed by "Show details". */
  details?: string;
  /** A domain error's own localized message (403 "You are not allowed…"), instead of the generic text. */
  message?: string;
  /** What else the screen offers (a missing language version: a link to write it). */
  children?: ReactNode;
}

/**
 * The spec's error screen, in the layout of a "result" page: 404 → Not Found; anything else → the
 * status code and a generic text. Plain HTML and CSS, so it reads the same without JavaScript and
 * costs no component library on pages that never fail.
 */
export function ErrorScreen({ status, path, details, message: ownMessage, children }: ErrorScreenProps) {
  const { t } = useTranslation("common");
  const locale = localeFromPath(path);
  const notFound = status === 404;
  const message = notFound ? t("error.not_found_message") : (ownMessage ?? t("error.generic_message"));
  const shown = notFound ? t("error.page_not_found", { path }) + (details && details !== path ? `\n${details}` : "") : details;
  return (
    <section className="error-screen result" aria-labelledby="error-title">
      <title>{`${status} ${message}`}</title>
      <ResultIllustration status={status} />
      <h1 id="error-title" className="result-title">
        {notFound ? t("error.not_found_title") : String(status)}
      </h1>
      <p className="result-subtitle">{message}</p>
      {children}
      <p className="result-extra">
        <a className="button button-primary" href={localizePath("/", locale)}>
          {t("error.return_home")}
        </a>
      </p>
      {shown ? (
        <details className="error-details">
          <summary>
            <span className="when-closed">{t("error.show_details")}</span>
            <span className="when-open">{t("error.hide_details")}</span>
          </summary>
          <pre>{shown}</pre>
        </details>
      ) : null}
    </section>
  );
}

/**
 * A light, decorative picture of a lost page (404) or a broken one (other errors): a static SVG
 * with its own dark-mode colours (public/result-404.svg, public/result-error.svg), so it costs
 * the scripts every page loads nothing.
 */
function ResultIllustration({ status }: { status: number }) {
  return (
    <img className="result-illustration" src={status === 404 ? "/result-404.svg" : "/result-error.svg"} alt="" width={240} height={160} />
  );
}
