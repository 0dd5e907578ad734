import { data, Form, redirect, useNavigation } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/account-profile";
import { dispatchIntent, failuresOnErrorScreen, formAction, type FormFailure as OperationFormFailure } from "../../server/lib/operation.ts";
import {
  assertFormCsrf,
  csrfForForm,
  getAppContext,
  here,
  keptValues,
  privatePageHeaders,
  readForm,
  requireViewer,
  formFailure,
} from "../lib/context.server.ts";
import { getUser } from "../../features/accounts/service.ts";
import { countryOptions } from "../../features/accounts/countries.ts";
import { genders } from "../../features/accounts/constants.ts";
import {
  passwordChangeSchema,
  passwordInputFromForm,
  profileInputFromForm,
  profileLimits,
  profileSchema,
} from "../../features/profiles/schema.ts";
import { presentOwnProfile } from "../../features/profiles/presenter.ts";
import { AppError } from "../../common/app-error.ts";
import { localizePath, pageUrl, shanghaiDay, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { useFormValidation } from "../lib/use-form-validation.ts";
import { FormField, describedBy } from "../components/form-field.tsx";
import { AccountLayout } from "../components/account-layout.tsx";
import { MessagePreferencesForm, mutedFromForm } from "../components/message-preferences-form.tsx";
import { mutedCategories } from "../../features/messages/preferences.ts";
import { savePreferencesOperation } from "../../features/messages/operations.ts";
import { changePasswordOperation, updateOwnProfileOperation } from "../../features/profiles/operations.ts";
import "../lib/centre-catalog.ts";
import "../lib/site-pages-catalog.ts";
import { hogwartsHouses } from "../../features/schools/constants.ts";
import "../../common/i18n-forms.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "centre:profile_form.title");

export const headers = privatePageHeaders;

const profileFieldNames = [
  "nickname",
  "signature",
  "self_description",
  "gender",
  "birthday",
  "country",
  "school",
  "profession",
  "hogwarts_school",
];

export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const user = await getUser(app.db, requireViewer(app).id);
  if (!user) throw new AppError("not_authenticated");
  const csrf = csrfForForm(app);
  const body = {
    muted: [...(await mutedCategories(app.db, user.id))],
    csrfToken: csrf.token,
    countries: countryOptions(app.locale),
    today: shanghaiDay(app.now()),
    profile: presentOwnProfile(user),
    /** Back from a password change (its action redirects here with the new session). */
    passwordChanged: pageUrl(request.url).searchParams.get("changed") === "password",
  };
  return data(body, { headers: csrf.setCookie ? { "Set-Cookie": csrf.setCookie } : undefined });
}

/**
 * Three forms on one page, each an operation of the API: `intent=profile` (the default) saves the
 * profile, `intent=password` changes the password, `intent=notifications` mutes categories.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  requireViewer(app);
  const form = await readForm(request);
  // The profile form posts no intent: it is the default.
  const intent = form.get("intent") === "password" || form.get("intent") === "notifications" ? String(form.get("intent")) : "profile";
  form.set("intent", intent);
  const values = intent === "profile" ? keptValues(form, profileFieldNames) : undefined;
  const refused = (of: "profile" | "password") => (failure: OperationFormFailure) =>
    data({ intent: of, formError: failure.formError, fieldErrors: failure.fieldErrors, values }, { status: failure.status });
  const handlers = {
    notifications: formAction(savePreferencesOperation, {
      body: (form) => ({ muted: mutedFromForm(form) }),
      done: () => ({ intent: "notifications" as const, saved: true as const }),
      ...failuresOnErrorScreen,
    }),
    profile: formAction(updateOwnProfileOperation, {
      // The page sends the whole profile: a field left out is a field left empty (the API takes any subset).
      body: (form) => Object.fromEntries(Object.entries(profileInputFromForm(form)).map(([name, value]) => [name, value ?? ""])),
      done: () => ({ intent: "profile" as const, saved: true as const }),
      failed: refused("profile"),
    }),
    password: formAction(changePasswordOperation, {
      body: passwordInputFromForm,
      // The old session is gone: the browser takes the new one (and a CSRF token bound to it) with
      // this redirect, and the page is loaded afresh with them, so its forms carry the new token.
      done: () => redirect(`${here(app, "/account/profile")}?changed=password`),
      failed: refused("password"),
    }),
  };
  try {
    assertFormCsrf(app, form);
    return await dispatchIntent({ app, request, form, params: {} }, handlers);
  } catch (error) {
    if (intent === "notifications") throw error;
    return withIntent(intent === "password" ? "password" : "profile", formFailure(app, error, values));
  }
}

/** Tells the page which of its two forms a failure belongs to. */
function withIntent<T extends { data: object; init: ResponseInit | null }>(intent: "profile" | "password", failure: T) {
  return data({ intent, ...failure.data }, failure.init ?? undefined);
}

type ActionData = {
  intent: "profile" | "password" | "notifications";
  saved?: true;
  formError?: string;
  fieldErrors?: Record<string, string>;
  values?: Record<string, string>;
};

export default function AccountProfile({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(["centre", "accounts"]);
  const locale = i18n.language as Locale;
  const navigation = useNavigation();
  const answer = actionData as ActionData | undefined;
  const profileAnswer = answer?.intent === "profile" ? answer : undefined;
  const passwordAnswer = answer?.intent === "password" ? answer : undefined;
  const profileForm = useFormValidation(profileSchema, profileInputFromForm, profileAnswer?.fieldErrors);
  const passwordForm = useFormValidation(passwordChangeSchema, passwordInputFromForm, passwordAnswer?.fieldErrors);
  const { profile, countries, today } = loaderData;
  const kept = { ...profile, ...profileAnswer?.values } as Record<string, string>;
  const busy = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const action = localizePath("/account/profile", locale);
  const errors = profileForm.errors;
  return (
    <AccountLayout username={profile.username}>
      <section className="panel" aria-labelledby="profile-title">
        <h1 id="profile-title" className="page-title">
          {t("profile_form.heading")}
        </h1>
        {profileAnswer?.saved ? (
          <p className="form-success" role="status">
            {t("profile_form.saved")}
          </p>
        ) : null}
        {profileAnswer?.formError ? (
          <p className="form-error" role="alert">
            {profileAnswer.formError}
          </p>
        ) : null}
        <Form
          method="post"
          action={action}
          noValidate
          onSubmit={profileForm.onSubmit}
          aria-label={t("profile_form.heading")}
          className="account-form"
          key={profileAnswer?.saved ? "saved" : "editing"}
        >
          <input type="hidden" name="csrftoken" value={loaderData.csrfToken} />
          <input type="hidden" name="intent" value="profile" />
          <FormField id="profile-username" label={t("profile_form.username")} hint={t("profile_form.username_hint")}>
            <input
              id="profile-username"
              className="text-input"
              value={profile.username}
              readOnly
              aria-describedby="profile-username-hint"
            />
          </FormField>
          <FormField id="profile-nickname" label={t("profile_form.nickname")} error={errors.nickname}>
            <input
              id="profile-nickname"
              name="nickname"
              className="text-input"
              defaultValue={kept.nickname}
              maxLength={profileLimits.nickname}
              {...describedBy("profile-nickname", errors.nickname)}
            />
          </FormField>
          <FormField
            id="profile-signature"
            label={t("profile_form.signature")}
            error={errors.signature}
            hint={t("profile_form.signature_hint")}
          >
            <input
              id="profile-signature"
              name="signature"
              className="text-input"
              defaultValue={kept.signature}
              maxLength={profileLimits.signature}
              {...describedBy("profile-signature", errors.signature, "hint")}
            />
          </FormField>
          <FormField
            id="profile-description"
            label={t("profile_form.self_description")}
            error={errors.self_description}
            hint={t("profile_form.self_description_hint")}
          >
            <textarea
              id="profile-description"
              name="self_description"
              className="text-input text-area"
              rows={4}
              defaultValue={kept.self_description}
              maxLength={profileLimits.selfDescription}
              {...describedBy("profile-description", errors.self_description, "hint")}
            />
          </FormField>
          <fieldset className="form-field plain-fieldset" aria-describedby={errors.gender ? "profile-gender-error" : undefined}>
            <legend>{t("profile_form.gender")}</legend>
            <div className="radio-row">
              {genders.map((gender) => (
                <label key={gender}>
                  <input type="radio" name="gender" value={gender} defaultChecked={kept.gender === gender} />{" "}
                  {t(`accounts:register.gender_${gender}`)}
                </label>
              ))}
            </div>
            {errors.gender ? (
              <div className="form-error" id="profile-gender-error" role="alert">
                {errors.gender}
              </div>
            ) : null}
          </fieldset>
          <FormField id="profile-birthday" label={t("profile_form.birthday")} error={errors.birthday}>
            <input
              id="profile-birthday"
              name="birthday"
              type="date"
              className="text-input"
              min="1900-01-01"
              max={today}
              defaultValue={kept.birthday}
              {...describedBy("profile-birthday", errors.birthday)}
            />
          </FormField>
          <FormField id="profile-country" label={t("profile_form.country")} error={errors.country}>
            <select
              id="profile-country"
              name="country"
              className="native-select"
              defaultValue={kept.country}
              {...describedBy("profile-country", errors.country)}
            >
              {countries.map((country) => (
                <option key={country.code} value={country.code}>
                  {country.name}
                </option>
              ))}
            </select>
          </FormField>
          <FormField id="profile-school" label={t("profile_form.school")} error={errors.school}>
            <input
              id="profile-school"
              name="school"
              className="text-input"
              defaultValue={kept.school}
              maxLength={profileLimits.school}
              {...describedBy("profile-school", errors.school)}
            />
          </FormField>
          <FormField id="profile-profession" label={t("profile_form.profession")} error={errors.profession}>
            <input
              id="profile-profession"
              name="profession"
              className="text-input"
              defaultValue={kept.profession}
              maxLength={profileLimits.profession}
              {...describedBy("profile-profession", errors.profession)}
            />
          </FormField>
          <FormField
            id="profile-hogwarts"
            label={t("profile_form.hogwarts_school")}
            error={errors.hogwarts_school}
            hint={t("profile_form.hogwarts_hint")}
          >
            <select
              id="profile-hogwarts"
              name="hogwarts_school"
              className="native-select"
              defaultValue={kept.hogwarts_school}
              {...describedBy("profile-hogwarts", errors.hogwarts_school, t("profile_form.hogwarts_hint"))}
            >
              <option value="">{t("profile_form.hogwarts_none")}</option>
              {hogwartsHouses.map((house) => (
                <option key={house} value={house}>
                  {t(`sitepages:school.houses.${house}`)}
                </option>
              ))}
            </select>
          </FormField>
          <button type="submit" className="button button-primary" disabled={busy("profile")}>
            {t("profile_form.save")}
          </button>
        </Form>
      </section>
      <section className="panel" aria-labelledby="password-title">
        <h2 id="password-title" className="page-title">
          {t("password_form.heading")}
        </h2>
        {passwordAnswer?.saved || (loaderData.passwordChanged && !answer) ? (
          <p className="form-success" role="status">
            {t("password_form.changed")}
          </p>
        ) : null}
        {passwordAnswer?.formError ? (
          <p className="form-error" role="alert">
            {passwordAnswer.formError}
          </p>
        ) : null}
        <Form
          method="post"
          action={action}
          noValidate
          onSubmit={passwordForm.onSubmit}
          aria-label={t("password_form.heading")}
          className="account-form"
          key={passwordAnswer?.saved ? "changed" : "password"}
        >
          <input type="hidden" name="csrftoken" value={loaderData.csrfToken} />
          <input type="hidden" name="intent" value="password" />
          <input type="text" name="username" autoComplete="username" value={profile.username} readOnly hidden />
          <FormField id="password-old" label={t("password_form.old_password")} error={passwordForm.errors.old_password}>
            <input
              id="password-old"
              name="old_password"
              type="password"
              className="text-input"
              autoComplete="current-password"
              maxLength={200}
              {...describedBy("password-old", passwordForm.errors.old_password)}
            />
          </FormField>
          <FormField
            id="password-new"
            label={t("password_form.password")}
            error={passwordForm.errors.password}
            hint={t("password_form.password_hint")}
          >
            <input
              id="password-new"
              name="password"
              type="password"
              className="text-input"
              autoComplete="new-password"
              maxLength={20}
              {...describedBy("password-new", passwordForm.errors.password, "hint")}
            />
          </FormField>
          <FormField id="password-confirm" label={t("password_form.confirm_password")} error={passwordForm.errors.confirm_password}>
            <input
              id="password-confirm"
              name="confirm_password"
              type="password"
              className="text-input"
              autoComplete="new-password"
              maxLength={20}
              {...describedBy("password-confirm", passwordForm.errors.confirm_password)}
            />
          </FormField>
          <button type="submit" className="button button-primary" disabled={busy("password")}>
            {t("password_form.submit")}
          </button>
        </Form>
      </section>
      <MessagePreferencesForm
        action={action}
        csrfToken={loaderData.csrfToken}
        muted={loaderData.muted}
        saved={answer?.intent === "notifications" && answer.saved === true}
        busy={busy("notifications")}
      />
    </AccountLayout>
  );
}
