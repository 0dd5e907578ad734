import { Button, Result } from "antd";
import { useTranslation } from "react-i18next";
import { localeFromPath, localizePath } from "../lib/locale.ts";
import { AntdScope } from "./antd-scope.tsx";

interface ErrorScreenProps {
  status: number;
  /** The path that failed, shown in the details of a 404. */
  path: string;
  /** Message (and, in development, stack) revealed by "Show details". */
  details?: string;
}

/** The spec's error screen: 404 → Not Found result; anything else → the status code and a generic text. */
export function ErrorScreen({ status, path, details }: ErrorScreenProps) {
  const { t } = useTranslation("common");
  const locale = localeFromPath(path);
  const notFound = status === 404;
  const message = notFound ? t("error.not_found_message") : t("error.generic_message");
  const shown = notFound ? t("error.page_not_found", { path }) + (details && details !== path ? `\n${details}` : "") : details;
  return (
    <AntdScope>
      <section className="error-screen" aria-labelledby="error-title">
        <title>{`${status} ${message}`}</title>
        <Result
          status={notFound ? "404" : status === 403 ? "403" : "500"}
          title={<h1 id="error-title" className="error-title">{notFound ? t("error.not_found_title") : String(status)}</h1>}
          subTitle={message}
          extra={
            <Button type="primary" href={localizePath("/", locale)}>
              {t("error.return_home")}
            </Button>
          }
        >
          {shown ? (
            <details className="error-details">
              <summary>
                <span className="when-closed">{t("error.show_details")}</span>
                <span className="when-open">{t("error.hide_details")}</span>
              </summary>
              <pre>{shown}</pre>
            </details>
          ) : null}
        </Result>
      </section>
    </AntdScope>
  );
}
