import { data, Form, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/circle-settings";
import { assertFormCsrf, formFailure, getAppContext, here, keptValues, readUploadForm } from "../lib/context.server.ts";
import { dispatchIntent, formAction, type FormFailure as OperationFormFailure, type FormPost } from "../../server/lib/operation.ts";
import { deleteCircleOperation, updateCircleOperation } from "../../features/circles/manage-operations.ts";
import { managedCircle, uploadedCircleLogo, withFormToken } from "../lib/circle-pages.server.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { translator } from "../../common/i18n.ts";
import { pageMeta } from "../lib/meta.ts";
import { useFormValidation } from "../lib/use-form-validation.ts";
import { FormField, describedBy } from "../components/form-field.tsx";
import { LogoField, VisibilityField } from "../components/circle-form-fields.tsx";
import { maxImageBytes } from "../../features/attachments/constants.ts";
import { CircleSettingsLayout, FormAlert } from "../components/circle-settings-layout.tsx";
import { circleDescriptionMaxLength, circleNameMaxLength, textField, updateCircleSchema } from "../../features/circles/schema.ts";
import { parentChoices } from "../../features/circles/manage.ts";
import { can } from "../../features/circles/policy.ts";
import { defaultLanguageOf, localizedTexts } from "../../features/circles/presenter.ts";
import { circleAdFree } from "../../features/ads/circles.ts";
import { setCircleAdsOperation } from "../../features/ads/operations.ts";
import "../lib/circles-catalog.ts";
import "../lib/ads-catalog.ts";
import "../../common/i18n-forms.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "circles:settings.title");

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** Name, description, visibility and parent (in the default language); whether its pages show ads; deleting the circle. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const { access, row } = await managedCircle(app, request, params.circleId, "edit_settings");
  const defaultLanguage = defaultLanguageOf(row);
  const isRoot = row.parentId === null;
  return withFormToken(app, {
    circle: {
      id: row.id,
      name: localizedTexts(row, app.locale).name,
      logo: row.logo,
      parentId: row.parentId,
      visibility: row.visibility,
      isRoot,
    },
    texts: localizedTexts(row, defaultLanguage),
    defaultLanguage,
    parents: isRoot ? [] : await parentChoices(app.db, app.viewer!, row.id, app.locale),
    canDelete: can(app.viewer, "delete", access) && !isRoot,
    adFree: (await circleAdFree(app.db, app.viewer!, row.id)).adFree,
  });
}

function settingsInputFromForm(form: FormData) {
  const parent = textField(form, "parent_id");
  return {
    name: textField(form, "name"),
    description: textField(form, "description") ?? "",
    visibility: textField(form, "visibility"),
    parent_id: parent && /^\d{1,10}$/.test(parent) ? Number(parent) : undefined,
    ...(form.get("remove_logo") === "on" ? { logo: null } : {}),
  };
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const { row } = await managedCircle(app, request, params.circleId, "edit_settings");
  const form = await readUploadForm(request, maxImageBytes);
  const values = keptValues(form, ["name", "description", "visibility", "parent_id"]);
  const refused = ({ formError, fieldErrors, status }: OperationFormFailure) => data({ formError, fieldErrors, values }, { status });
  const circle = () => ({ id: row.id });
  const handlers = {
    ads: (post: FormPost) => adsForm(post),
    delete: async (post: FormPost) => {
      if (post.form.get("confirm") !== "on")
        return data(
          { fieldErrors: { confirm: translator(app.locale)("circles:settings.delete_confirm_required") }, values },
          { status: 400 },
        );
      return deleteForm(post);
    },
    save: formAction(updateCircleOperation, {
      params: circle,
      body: (form) => {
        const input = settingsInputFromForm(form);
        // The global village keeps its place and visibility.
        if (row.parentId === null) {
          delete input.visibility;
          delete input.parent_id;
        }
        return input;
      },
      uploads: ({ form }) => (form.get("remove_logo") === "on" ? Promise.resolve({}) : uploadedCircleLogo(app, app.viewer!.id, form)),
      done: () => ({ saved: true }),
      failed: refused,
    }),
  };
  const adsForm = formAction(setCircleAdsOperation, {
    params: circle,
    body: (form) => ({ ad_free: form.get("ad_free") === "on" }),
    done: () => ({ adsSaved: true }),
    failed: refused,
  });
  const deleteForm = formAction(deleteCircleOperation, {
    params: circle,
    done: () => redirect(here(app, row.parentId === null ? "/circles" : `/circles/${row.parentId}`)),
    failed: refused,
  });
  try {
    assertFormCsrf(app, form);
    const intent = form.get("intent");
    form.set("intent", intent === "delete" || intent === "ads" ? intent : "save");
    return await dispatchIntent({ app, request, form, params }, handlers);
  } catch (error) {
    return formFailure(app, error, values);
  }
}

export default function CircleSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("circles");
  const locale = i18n.language as Locale;
  const { circle, texts, parents, canDelete, csrfToken, defaultLanguage, adFree } = loaderData;
  const { t: tAds } = useTranslation("ads");
  const failure = actionData && "fieldErrors" in actionData ? actionData : undefined;
  const { errors, onSubmit } = useFormValidation(updateCircleSchema, settingsInputFromForm, failure?.fieldErrors);
  const kept: Record<string, string> = failure?.values ?? {};
  const action = localizePath(`/circles/${circle.id}/settings`, locale);
  const language = t(`languages.${defaultLanguage}`);
  return (
    <CircleSettingsLayout
      circle={circle}
      title={t("settings.general")}
      notice={actionData && "saved" in actionData ? t("settings.saved") : null}
    >
      <FormAlert message={failure && "formError" in failure ? failure.formError : undefined} />
      <Form method="post" action={action} encType="multipart/form-data" noValidate onSubmit={onSubmit} aria-label={t("settings.general")}>
        <input type="hidden" name="csrftoken" value={csrfToken} />
        <FormField id="settings-name" label={t("settings.name_in", { language })} error={errors.name}>
          <input
            id="settings-name"
            name="name"
            className="text-input"
            defaultValue={kept.name ?? texts.name}
            maxLength={circleNameMaxLength}
            required
            {...describedBy("settings-name", errors.name)}
          />
        </FormField>
        <FormField id="settings-description" label={t("settings.description_in", { language })} error={errors.description}>
          <textarea
            id="settings-description"
            name="description"
            className="text-input text-area"
            rows={4}
            defaultValue={kept.description ?? texts.description}
            maxLength={circleDescriptionMaxLength}
            {...describedBy("settings-description", errors.description)}
          />
        </FormField>
        <LogoField id="settings-logo" current={circle.logo} />
        {circle.isRoot ? (
          <p className="muted">{t("settings.root_fixed")}</p>
        ) : (
          <>
            <VisibilityField id="settings-visibility" defaultValue={kept.visibility ?? circle.visibility} error={errors.visibility} />
            <FormField id="settings-parent" label={t("settings.parent")} error={errors.parent_id}>
              <select
                id="settings-parent"
                name="parent_id"
                className="native-select"
                defaultValue={kept.parent_id ?? String(circle.parentId)}
                {...describedBy("settings-parent", errors.parent_id)}
              >
                {parents.map((parent) => (
                  <option key={parent.id} value={parent.id}>
                    {"\u00a0\u00a0".repeat(parent.depth)}
                    {parent.name}
                  </option>
                ))}
              </select>
            </FormField>
          </>
        )}
        <button type="submit" name="intent" value="save" className="button button-primary">
          {t("settings.save")}
        </button>
      </Form>
      <section aria-labelledby="ads-title">
        <h2 id="ads-title">{tAds("circle_ads_title")}</h2>
        <p className="muted">{tAds("circle_ads_hint")}</p>
        {actionData && "adsSaved" in actionData ? <p role="status">{tAds("circle_ads_saved")}</p> : null}
        <Form method="post" action={action} aria-label={tAds("circle_ads_title")}>
          <input type="hidden" name="csrftoken" value={csrfToken} />
          <label className="choice">
            <input type="checkbox" name="ad_free" defaultChecked={adFree} />
            <span>{tAds("circle_ad_free")}</span>
          </label>
          <button type="submit" name="intent" value="ads" className="button">
            {tAds("circle_ads_save")}
          </button>
        </Form>
      </section>
      {canDelete ? (
        <section className="danger-zone" aria-labelledby="delete-title">
          <h2 id="delete-title">{t("settings.delete_title")}</h2>
          <p className="muted">{t("settings.delete_text")}</p>
          <Form method="post" action={action}>
            <input type="hidden" name="csrftoken" value={csrfToken} />
            <label className="choice">
              <input type="checkbox" name="confirm" aria-describedby={errors.confirm ? "settings-confirm-error" : undefined} />
              <span>{t("settings.delete_confirm")}</span>
            </label>
            {errors.confirm ? (
              <div className="form-error" id="settings-confirm-error" role="alert" data-field-error="settings-confirm">
                {errors.confirm}
              </div>
            ) : null}
            <button type="submit" name="intent" value="delete" className="button button-danger">
              {t("settings.delete")}
            </button>
          </Form>
        </section>
      ) : null}
    </CircleSettingsLayout>
  );
}
