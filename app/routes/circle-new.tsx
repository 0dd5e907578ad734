import { data, Form, redirect, useNavigation } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/circle-new";
import {
  assertFormCsrf,
  formFailure,
  getAppContext,
  here,
  keptValues,
  notFound,
  readUploadForm,
  type FormFailure,
} from "../lib/context.server.ts";
import { formAction } from "../../server/lib/operation.ts";
import { createCircleOperation } from "../../features/circles/manage-operations.ts";
import { circleIdOf, uploadedCircleLogo, withFormToken } from "../lib/circle-pages.server.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { AppError } from "../../common/app-error.ts";
import { pageMeta } from "../lib/meta.ts";
import { useFormValidation } from "../lib/use-form-validation.ts";
import { FormField, describedBy } from "../components/form-field.tsx";
import { LanguageFields, LogoField, VisibilityField } from "../components/circle-form-fields.tsx";
import { maxImageBytes } from "../../features/attachments/constants.ts";
import { FormAlert } from "../components/circle-settings-layout.tsx";
import {
  circleDescriptionMaxLength,
  circleNameMaxLength,
  createCircleInputFromForm,
  createCircleSchema,
} from "../../features/circles/schema.ts";
import { requireCircle } from "../../features/circles/access.server.ts";
import { rootCircleId } from "../../features/circles/manage.ts";
import { getCirclePage } from "../../features/circles/service.ts";
import "../lib/circles-catalog.ts";
import "../../common/i18n-forms.ts";

export const meta: Route.MetaFunction = ({ location }) =>
  pageMeta(location, location.pathname.endsWith("/circles/new") ? "circles:create.title" : "circles:create.sub_title");

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * `/circles/new` creates a circle under the global village, `/circles/{id}/new` a sub-circle of
 * that circle. Visitors log in first; a circle the viewer may not see is a 404, one they may not
 * create in a 403.
 */
async function parentFor(context: Route.LoaderArgs["context"], request: Request, raw: string | undefined) {
  const app = getAppContext(context);
  if (!app.viewer) throw new AppError("not_authenticated");
  const parentId = raw === undefined ? rootCircleId : circleIdOf(request, raw);
  try {
    await requireCircle(app.db, app.viewer, parentId, "create_subcircle", { signedIn: true });
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound(request);
    throw error;
  }
  return { app, viewer: app.viewer, parentId };
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { app, viewer, parentId } = await parentFor(context, request, params.circleId);
  const page = await getCirclePage(app.db, viewer, parentId, app.locale);
  if (!page) notFound(request);
  return withFormToken(app, { parent: { id: page.circle.id, name: page.circle.name, isRoot: page.circle.parentId === null } });
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const { app, viewer, parentId } = await parentFor(context, request, params.circleId);
  const form = await readUploadForm(request, maxImageBytes);
  const values = keptValues(form, ["name", "description", "visibility", "default_language"]);
  const create = formAction(createCircleOperation, {
    body: (form) => ({ ...createCircleInputFromForm(form), parent_id: parentId }),
    uploads: ({ form }) => uploadedCircleLogo(app, viewer.id, form),
    done: ({ url }) => redirect(here(app, url)),
    failed: ({ formError, fieldErrors, status }) => data<FormFailure>({ formError, fieldErrors, values }, { status }),
  });
  try {
    assertFormCsrf(app, form);
    return await create({ app, request, form, params });
  } catch (error) {
    return formFailure(app, error, values);
  }
}

export default function CircleNew({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("circles");
  const locale = i18n.language as Locale;
  const navigation = useNavigation();
  const { errors, onSubmit } = useFormValidation(createCircleSchema, createCircleInputFromForm, actionData?.fieldErrors);
  const { parent, csrfToken } = loaderData;
  const kept = actionData?.values ?? {};
  const action = localizePath(parent.isRoot ? "/circles/new" : `/circles/${parent.id}/new`, locale);
  return (
    <section className="panel form-panel" aria-labelledby="new-circle-title">
      <h1 id="new-circle-title" className="page-title">
        {parent.isRoot ? t("create.title") : t("create.sub_title")}
      </h1>
      <p className="muted">
        {t("create.under", { name: parent.name })} {t("create.founder_note")}
      </p>
      <FormAlert message={actionData?.formError} />
      <Form method="post" action={action} encType="multipart/form-data" noValidate onSubmit={onSubmit} aria-labelledby="new-circle-title">
        <input type="hidden" name="csrftoken" value={csrfToken} />
        <FormField id="circle-name" label={t("create.name")} error={errors.name} hint={t("create.name_hint")}>
          <input
            id="circle-name"
            name="name"
            className="text-input"
            defaultValue={kept.name}
            maxLength={circleNameMaxLength}
            required
            {...describedBy("circle-name", errors.name, "hint")}
          />
        </FormField>
        <FormField id="circle-description" label={t("create.description")} error={errors.description}>
          <textarea
            id="circle-description"
            name="description"
            className="text-input text-area"
            rows={4}
            defaultValue={kept.description}
            maxLength={circleDescriptionMaxLength}
            {...describedBy("circle-description", errors.description)}
          />
        </FormField>
        <LogoField id="circle-logo" current={null} />
        <VisibilityField id="circle-visibility" defaultValue={kept.visibility ?? "public"} error={errors.visibility} />
        <LanguageFields id="circle" defaultLanguage={kept.default_language ?? locale} languages={["zh-CN", "en"]} errors={errors} />
        <button type="submit" className="button button-primary" disabled={navigation.state === "submitting"}>
          {t("create.submit")}
        </button>
      </Form>
    </section>
  );
}
