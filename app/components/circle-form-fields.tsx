import { useTranslation } from "../lib/i18n.tsx";
import { locales } from "../../common/locale.ts";
import { circleVisibilityValues } from "../../features/circles/schema.ts";
import { acceptedImageTypes } from "../../features/attachments/constants.ts";
import "../lib/circles-catalog.ts";
import "../../common/i18n-forms.ts";

/** A radio group with a hint per choice; `error` is already translated. */
export function VisibilityField({ id, defaultValue, error }: { id: string; defaultValue: string; error?: string }) {
  const { t } = useTranslation("circles");
  return (
    <fieldset className="form-field choice-group" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{t("create.visibility")}</legend>
      {circleVisibilityValues.map((value) => (
        <div key={value} className="choice">
          <input
            type="radio"
            id={`${id}-${value}`}
            name="visibility"
            value={value}
            defaultChecked={value === defaultValue}
            aria-describedby={`${id}-${value}-hint`}
          />
          <div>
            <label htmlFor={`${id}-${value}`}>{t(`visibility.${value}`)}</label>
            <div className="form-hint" id={`${id}-${value}-hint`}>
              {t(`visibility.${value}_hint`)}
            </div>
          </div>
        </div>
      ))}
      {error ? (
        <div className="form-error" id={`${id}-error`} role="alert" data-field-error={id}>
          {error}
        </div>
      ) : null}
    </fieldset>
  );
}

/** Default language (a select) and the circle's languages (checkboxes). */
export function LanguageFields({
  id,
  defaultLanguage,
  languages,
  errors,
}: {
  id: string;
  defaultLanguage: string;
  languages: string[];
  errors: Record<string, string | undefined>;
}) {
  const { t } = useTranslation("circles");
  return (
    <>
      <div className="form-field">
        <label htmlFor={`${id}-default-language`}>{t("create.default_language")}</label>
        <select
          id={`${id}-default-language`}
          name="default_language"
          className="native-select"
          defaultValue={defaultLanguage}
          aria-invalid={errors.default_language ? true : undefined}
        >
          {locales.map((language) => (
            <option key={language} value={language}>
              {t(`languages.${language}`)}
            </option>
          ))}
        </select>
        {errors.default_language ? (
          <div className="form-error" role="alert" data-field-error={`${id}-default-language`}>
            {errors.default_language}
          </div>
        ) : null}
      </div>
      <fieldset className="form-field choice-group" aria-describedby={errors.languages ? `${id}-languages-error` : `${id}-languages-hint`}>
        <legend>{t("create.languages")}</legend>
        {locales.map((language) => (
          <label key={language} className="choice">
            <input type="checkbox" name="languages" value={language} defaultChecked={languages.includes(language)} />
            <span>{t(`languages.${language}`)}</span>
          </label>
        ))}
        {errors.languages ? (
          <div className="form-error" id={`${id}-languages-error`} role="alert" data-field-error={`${id}-languages`}>
            {errors.languages}
          </div>
        ) : (
          <div className="form-hint" id={`${id}-languages-hint`}>
            {t("create.languages_hint")}
          </div>
        )}
      </fieldset>
    </>
  );
}

/** The logo: a JPG or PNG file (checked and squared on the server), and removing the current one. */
export function LogoField({ id, current }: { id: string; current: string | null }) {
  const { t } = useTranslation("circles");
  const shown = current && current.startsWith("/") ? current : null;
  return (
    <div className="form-field">
      <label htmlFor={id}>{t("create.logo")}</label>
      {shown ? <img className="circle-logo" src={shown} alt={t("create.current_logo")} width={64} height={64} /> : null}
      <input id={id} name="logo" type="file" accept={acceptedImageTypes} aria-describedby={`${id}-hint`} />
      <div className="form-hint" id={`${id}-hint`}>
        {t("create.logo_hint")}
      </div>
      {shown ? (
        <label className="choice">
          <input type="checkbox" name="remove_logo" />
          <span>{t("create.remove_logo")}</span>
        </label>
      ) : null}
    </div>
  );
}
