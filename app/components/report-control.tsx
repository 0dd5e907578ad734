import { lazy } from "react";
import { useTranslation } from "../lib/i18n.tsx";
import { localizePath, type Locale } from "../../common/locale.ts";
import { FlagIcon } from "./icons.tsx";
import { DialogLink } from "./dialog-link.tsx";

const ReportDialog = lazy(() => import("./report-dialog.tsx"));

/**
 * Report (举报) for any subject: a link to its report page `/subjects/{type}/{id}/report` (works
 * without JavaScript; visitors are sent to sign in there and brought back); with JavaScript and a
 * session it opens the report dialog instead, loaded on the first press so reading pages stay
 * light. The action bar, profiles and comment items use it.
 */
export function ReportControl({
  subjectType,
  subjectId,
  csrfToken,
  next,
  className,
}: {
  subjectType: string;
  subjectId: number;
  /** Null for visitors (the link then leads to sign in). */
  csrfToken: string | null;
  /** The page to come back to (without the language prefix). */
  next: string;
  className?: string;
}) {
  const { t, i18n } = useTranslation("interactions");
  const locale = i18n.language as Locale;
  return (
    <DialogLink
      to={`${localizePath(`/subjects/${subjectType}/${subjectId}/report`, locale)}?${new URLSearchParams({ next })}`}
      testId="report"
      className={className}
      dialog={
        csrfToken
          ? (close) => <ReportDialog subjectType={subjectType} subjectId={subjectId} csrfToken={csrfToken} next={next} onClose={close} />
          : null
      }
    >
      <FlagIcon /> {t("report.report")}
    </DialogLink>
  );
}
