import { useTranslation } from "../lib/i18n.tsx";
import { reportReasons } from "../../features/reports/constants.ts";
import { describedBy } from "./form-field.tsx";

/** The report form's fields (reason and description): the report page and the action bar's dialog share them. */
export function ReportFields({
  formError,
  fieldErrors,
  idPrefix = "report",
}: {
  formError?: string;
  fieldErrors?: Record<string, string>;
  idPrefix?: string;
}) {
  const { t } = useTranslation("interactions");
  const descriptionId = `${idPrefix}-description`;
  return (
    <>
      {formError ? (
        <p className="form-alert form-alert-error" role="alert">
          {formError}
        </p>
      ) : null}
      <fieldset className="plain-fieldset report-reasons">
        <legend>{t("report.reason")}</legend>
        {reportReasons.map((reason) => (
          <label key={reason} className="report-reason">
            <input type="radio" name="reason" value={reason} required data-testid={`reason-${reason}`} /> {t(`report.reasons.${reason}`)}
          </label>
        ))}
        {fieldErrors?.reason ? (
          <div className="form-error" role="alert">
            {fieldErrors.reason}
          </div>
        ) : null}
      </fieldset>
      <div className="form-field">
        <label htmlFor={descriptionId}>{t("report.description")}</label>
        <textarea
          id={descriptionId}
          name="description"
          className="text-input"
          rows={4}
          maxLength={500}
          placeholder={t("report.description_hint")}
          {...describedBy(descriptionId, fieldErrors?.description)}
        />
        {fieldErrors?.description ? (
          <div className="form-error" id={`${descriptionId}-error`} role="alert">
            {fieldErrors.description}
          </div>
        ) : null}
      </div>
    </>
  );
}
