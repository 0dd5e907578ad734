import { useState, type ChangeEvent, type FormEvent } from "react";
import { data, Form, useNavigation } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/account-avatar";
import {
  assertFormCsrf,
  csrfForForm,
  formFailure,
  getAppContext,
  privatePageHeaders,
  readUploadForm,
  requireViewer,
} from "../lib/context.server.ts";
import { getUser } from "../../features/accounts/service.ts";
import { defaultAvatar } from "../../features/accounts/presenter.ts";
import { setAvatar } from "../../features/profiles/service.ts";
import { can } from "../../features/attachments/policy.ts";
import { acceptedImageTypes, maxImageBytes } from "../../features/attachments/constants.ts";
import { authorize } from "../../common/policy.ts";
import { AppError } from "../../common/app-error.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { AccountLayout } from "../components/account-layout.tsx";
import "../lib/centre-catalog.ts";
import "../../common/i18n-forms.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "centre:avatar.title");

export const headers = privatePageHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const user = await getUser(app.db, requireViewer(app).id);
  if (!user) throw new AppError("not_authenticated");
  const csrf = csrfForForm(app);
  const body = {
    csrfToken: csrf.token,
    username: user.username,
    avatar: user.avatar ?? defaultAvatar,
    avatarSmall: user.avatarSmall ?? user.avatar ?? defaultAvatar,
  };
  return data(body, { headers: csrf.setCookie ? { "Set-Cookie": csrf.setCookie } : undefined });
}

/** A multipart form with field `file`: JPG or PNG up to 2 MB, checked by its bytes on the server. */
export async function action({ context, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  try {
    const form = await readUploadForm(request, maxImageBytes);
    assertFormCsrf(app, form);
    authorize(viewer, can(viewer, "upload"));
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) throw new AppError("file_required");
    if (file.size > maxImageBytes) throw new AppError("image_too_large");
    await setAvatar({ db: app.db, files: app.files }, viewer.id, Buffer.from(await file.arrayBuffer()));
    return { saved: true as const };
  } catch (error) {
    if (error instanceof Error && !(error instanceof AppError)) {
      console.error("avatar upload failed", error);
      return formFailure(app, new AppError("upload_failed"));
    }
    return formFailure(app, error);
  }
}

export default function AccountAvatar({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(["centre", "validation", "errors"]);
  const locale = i18n.language as Locale;
  const navigation = useNavigation();
  const [browserError, setBrowserError] = useState<string | null>(null);
  const answer = actionData as { saved?: true; formError?: string } | undefined;
  const submitting = navigation.state === "submitting";
  // The same rules the server applies, told before a 2 MB upload is sent for nothing.
  const check = (file: File | undefined): string | null => {
    if (!file || file.size === 0) return t("validation:image_required");
    if (!["image/jpeg", "image/png"].includes(file.type)) return t("errors:image_type_not_allowed");
    if (file.size > maxImageBytes) return t("errors:image_too_large");
    return null;
  };
  const onChange = (event: ChangeEvent<HTMLInputElement>) =>
    setBrowserError(event.currentTarget.files?.[0] ? check(event.currentTarget.files[0]) : null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const input = event.currentTarget.elements.namedItem("file") as HTMLInputElement | null;
    const problem = check(input?.files?.[0]);
    setBrowserError(problem);
    if (problem) {
      event.preventDefault();
      input?.focus();
    }
  };
  const error = browserError ?? (submitting ? null : answer?.formError);
  return (
    <AccountLayout username={loaderData.username}>
      <section className="panel" aria-labelledby="avatar-title">
        <h1 id="avatar-title" className="page-title">
          {t("avatar.heading")}
        </h1>
        <div className="avatar-previews">
          <figure>
            <img
              className="profile-avatar"
              src={loaderData.avatar}
              alt={t("avatar.current")}
              width={128}
              height={128}
              data-testid="avatar-large"
            />
            <figcaption className="muted">{t("avatar.preview_large")}</figcaption>
          </figure>
          <figure>
            <img className="site-avatar-image" src={loaderData.avatarSmall} alt="" width={32} height={32} data-testid="avatar-small" />
            <figcaption className="muted">{t("avatar.preview_small")}</figcaption>
          </figure>
        </div>
        {answer?.saved && !submitting ? (
          <p className="form-success" role="status">
            {t("avatar.saved")}
          </p>
        ) : null}
        <Form
          method="post"
          action={localizePath("/account/avatar", locale)}
          encType="multipart/form-data"
          onSubmit={onSubmit}
          noValidate
          className="account-form"
          aria-label={t("avatar.heading")}
        >
          <input type="hidden" name="csrftoken" value={loaderData.csrfToken} />
          <div className="form-field">
            <label htmlFor="avatar-file">{t("avatar.choose")}</label>
            <input
              id="avatar-file"
              name="file"
              type="file"
              accept={acceptedImageTypes}
              onChange={onChange}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "avatar-file-error" : "avatar-file-hint"}
            />
            {error ? (
              <div className="form-error" id="avatar-file-error" role="alert">
                {error}
              </div>
            ) : (
              <div className="form-hint" id="avatar-file-hint">
                {t("avatar.hint")}
              </div>
            )}
          </div>
          <button type="submit" className="button button-primary" disabled={submitting}>
            {t("avatar.submit")}
          </button>
        </Form>
      </section>
    </AccountLayout>
  );
}
