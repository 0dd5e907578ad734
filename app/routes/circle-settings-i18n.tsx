import { data, Form } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/circle-settings-i18n";
import { assertFormCsrf, formFailure, getAppContext, keptValues, readForm, type FormFailure } from "../lib/context.server.ts";
import { formAction } from "../../server/lib/operation.ts";
import { updateCircleOperation } from "../../features/circles/manage-operations.ts";
import { managedCircle, withFormToken } from "../lib/circle-pages.server.ts";
import { localizePath, locales, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { useFormValidation } from "../lib/use-form-validation.ts";
import { FormField, describedBy } from "../components/form-field.tsx";
import { LanguageFields } from "../components/circle-form-fields.tsx";
import { CircleSettingsLayout, FormAlert } from "../components/circle-settings-layout.tsx";
import {
  circleDescriptionMaxLength,
  circleNameMaxLength,
  descriptionField,
  nameField,
  textField,
  updateCircleSchema,
} from "../../features/circles/schema.ts";
import { circleLanguages, defaultLanguageOf, localizedTexts } from "../../features/circles/presenter.ts";
import "../lib/circles-catalog.ts";
import "../../common/i18n-forms.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "circles:i18n.title");

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

const textFields = ["name_zh", "description_zh", "name_en", "description_en"] as const;

/** Default language, the circle's languages, and its name and description in each language. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const { row } = await managedCircle(app, request, params.circleId, "edit_settings");
  return withFormToken(app, {
    circle: { id: row.id, name: localizedTexts(row, app.locale).name },
    defaultLanguage: defaultLanguageOf(row),
    languages: circleLanguages(row),
    texts: { name_zh: row.nameZh, description_zh: row.descriptionZh, name_en: row.nameEn, description_en: row.descriptionEn },
  });
}

function i18nInputFromForm(form: FormData) {
  const input: Record<string, unknown> = {
    default_language: textField(form, "default_language"),
    languages: form.getAll("languages").filter((value): value is string => typeof value === "string"),
  };
  for (const field of textFields) input[field] = textField(form, field) ?? "";
  return input;
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const { row } = await managedCircle(app, request, params.circleId, "edit_settings");
  const form = await readForm(request);
  const values = keptValues(form, [...textFields, "default_language"]);
  const save = formAction(updateCircleOperation, {
    params: () => ({ id: row.id }),
    body: i18nInputFromForm,
    done: () => ({ saved: true }),
    failed: ({ formError, fieldErrors, status }) => data<FormFailure>({ formError, fieldErrors, values }, { status }),
  });
  try {
    assertFormCsrf(app, form);
    return await save({ app, request, form, params });
  } catch (error) {
    return formFailure(app, error, values);
  }
}

export default function CircleSettingsI18n({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("circles");
  const locale = i18n.language as Locale;
  const { circle, defaultLanguage, languages, texts, csrfToken } = loaderData;
  const failure = actionData && "fieldErrors" in actionData ? actionData : undefined;
  const { errors, onSubmit } = useFormValidation(updateCircleSchema, i18nInputFromForm, failure?.fieldErrors);
  const kept: Record<string, string> = failure?.values ?? {};
  return (
    <CircleSettingsLayout
      circle={circle}
      title={t("settings.i18n")}
      notice={actionData && "saved" in actionData ? t("settings.saved") : null}
    >
      <p className="muted">{t("i18n.intro")}</p>
      <FormAlert message={failure && "formError" in failure ? failure.formError : undefined} />
      <Form
        method="post"
        action={localizePath(`/circles/${circle.id}/settings/i18n`, locale)}
        noValidate
        onSubmit={onSubmit}
        aria-label={t("i18n.title")}
      >
        <input type="hidden" name="csrftoken" value={csrfToken} />
        <LanguageFields id="i18n" defaultLanguage={kept.default_language ?? defaultLanguage} languages={languages} errors={errors} />
        {locales.map((language) => {
          const name = nameField(language);
          const description = descriptionField(language);
          const label = t(`languages.${language}`);
          return (
            <fieldset key={language} className="translation" lang={language}>
              <legend>{t("i18n.translation", { language: label })}</legend>
              <FormField
                id={`i18n-${name}`}
                label={t("settings.name_in", { language: label })}
                error={errors[name]}
                hint={t("i18n.translation_hint")}
              >
                <input
                  id={`i18n-${name}`}
                  name={name}
                  className="text-input"
                  defaultValue={kept[name] ?? texts[name]}
                  maxLength={circleNameMaxLength}
                  {...describedBy(`i18n-${name}`, errors[name], "hint")}
                />
              </FormField>
              <FormField id={`i18n-${description}`} label={t("settings.description_in", { language: label })} error={errors[description]}>
                <textarea
                  id={`i18n-${description}`}
                  name={description}
                  className="text-input text-area"
                  rows={3}
                  defaultValue={kept[description] ?? texts[description]}
                  maxLength={circleDescriptionMaxLength}
                  {...describedBy(`i18n-${description}`, errors[description])}
                />
              </FormField>
            </fieldset>
          );
        })}
        <button type="submit" className="button button-primary">
          {t("settings.save")}
        </button>
      </Form>
    </CircleSettingsLayout>
  );
}
