import { Form, Link, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/link";
import { assertFormCsrf, getAppContext, here, readForm, tagPage } from "../lib/context.server.ts";
import { withFormToken } from "../lib/circle-pages.server.ts";
import { formValues, refusedForm } from "../lib/site-pages.server.ts";
import { localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { friendLinksTag } from "../../server/lib/cache-tags.ts";
import { dispatchIntent, formAction } from "../../server/lib/operation.ts";
import { presentLink, presentPublicLink, suggestLinkOperation } from "../../features/links/operations.ts";
import { listApprovedLinks, listOwnSuggestions } from "../../features/links/service.ts";
import { linkLanguages } from "../../features/links/constants.ts";
import { can } from "../../features/links/policy.ts";
import { loadSiteRole } from "../../features/accounts/site-role.ts";
import { FormField, describedBy } from "../components/form-field.tsx";
import { FormAlert } from "../components/circle-settings-layout.tsx";
import "../lib/site-pages-catalog.ts";
import { sitePagesStylesheets } from "../lib/site-pages-styles.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "sitepages:link.title");
export const links = () => sitePagesStylesheets;
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * `/link`: the friend links staff approved, for everyone (visitors from the page cache, dropped by
 * `friendLinksTag` when a link is approved or rejected); signed-in users also suggest one and see
 * where their suggestions stand.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  tagPage(app, friendLinksTag);
  const listed = (await listApprovedLinks(app.db)).map(presentPublicLink);
  if (!app.viewer) return { listed, signedIn: false as const };
  const [mine, role] = await Promise.all([listOwnSuggestions(app.db, app.viewer), loadSiteRole(app.db, app.viewer.id)]);
  return withFormToken(app, {
    listed,
    signedIn: true as const,
    mine: mine.map(presentLink),
    staff: can(app.viewer, "review", role),
    suggested: pageUrl(request.url).searchParams.get("suggested") === "1",
  });
}

/** `intent=suggest`: the operation of `POST /api/links/`; without JavaScript back here with `?suggested=1`. */
export async function action({ context, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const values = formValues(form, ["name", "url", "description", "language"]);
  return dispatchIntent(
    { app, request, form, params: {} },
    {
      suggest: formAction(suggestLinkOperation, {
        done: () => redirect(`${here(app, "/link")}?suggested=1`, 303),
        failed: (failure) => refusedForm(failure, values),
      }),
    },
  );
}

export default function FriendLinks({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("sitepages");
  const locale = i18n.language as Locale;
  const failure = actionData && "values" in actionData ? actionData : undefined;
  const errors = failure?.fieldErrors ?? {};
  return (
    <section className="panel" aria-labelledby="link-title">
      <h1 id="link-title" className="page-title">
        {t("link.title")}
      </h1>
      <p>{t("link.intro")}</p>
      {loaderData.listed.length === 0 ? (
        <p>{t("link.none")}</p>
      ) : (
        <ul className="site-list" data-testid="friend-links">
          {loaderData.listed.map((link) => (
            <li key={link.id}>
              <a href={link.url} rel="noopener noreferrer nofollow" target="_blank">
                {link.name}
              </a>{" "}
              <span className="site-meta">{t(`link.languages.${link.language}`)}</span>
              {link.description ? <p className="preserve-lines">{link.description}</p> : null}
            </li>
          ))}
        </ul>
      )}
      <h2>{t("link.suggest_heading")}</h2>
      {!loaderData.signedIn ? (
        <p data-testid="link-sign-in">
          {t("link.sign_in")}{" "}
          <Link to={`${localizePath("/login", locale)}?next=${encodeURIComponent(localizePath("/link", locale))}`}>
            {t("link.sign_in_link")}
          </Link>
        </p>
      ) : (
        <>
          <p>{t("link.suggest_intro")}</p>
          {loaderData.staff ? (
            <p>
              <Link to={localizePath("/admin/links", locale)}>{t("link.admin_link")}</Link>
            </p>
          ) : null}
          {loaderData.suggested ? (
            <p className="notice" role="status" data-testid="link-suggested">
              {t("link.suggested")}
            </p>
          ) : null}
          <Form method="post" className="stack-form" data-testid="link-form">
            <input type="hidden" name="csrftoken" value={loaderData.csrfToken} />
            <input type="hidden" name="intent" value="suggest" />
            <FormAlert message={failure?.formError} />
            <FormField id="link-name" label={t("link.name")} error={errors.name}>
              <input
                id="link-name"
                name="name"
                className="text-input"
                maxLength={50}
                required
                defaultValue={failure?.values.name}
                {...describedBy("link-name", errors.name)}
              />
            </FormField>
            <FormField id="link-url" label={t("link.url")} error={errors.url}>
              <input
                id="link-url"
                name="url"
                type="url"
                className="text-input"
                maxLength={300}
                required
                placeholder="https://"
                defaultValue={failure?.values.url}
                {...describedBy("link-url", errors.url)}
              />
            </FormField>
            <FormField id="link-description" label={t("link.description")} error={errors.description}>
              <textarea
                id="link-description"
                name="description"
                className="text-input"
                rows={3}
                maxLength={200}
                defaultValue={failure?.values.description}
                {...describedBy("link-description", errors.description)}
              />
            </FormField>
            <FormField id="link-language" label={t("link.language")} error={errors.language}>
              <select id="link-language" name="language" className="native-select" defaultValue={failure?.values.language || "both"}>
                {linkLanguages.map((language) => (
                  <option key={language} value={language}>
                    {t(`link.languages.${language}`)}
                  </option>
                ))}
              </select>
            </FormField>
            <p className="form-hint">{t("link.rate_note")}</p>
            <div className="form-actions">
              <button type="submit" className="button button-primary" data-testid="link-submit">
                {t("link.submit")}
              </button>
            </div>
          </Form>
          {loaderData.mine.length > 0 ? (
            <>
              <h2>{t("link.mine")}</h2>
              <ul className="site-list" data-testid="link-mine">
                {loaderData.mine.map((link) => (
                  <li key={link.id}>
                    {link.name} <span className="site-meta">{link.url}</span> ·{" "}
                    <span data-testid="link-status">{t(`link.statuses.${link.status}`)}</span>
                    {link.review_note ? <p className="preserve-lines">{link.review_note}</p> : null}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </>
      )}
    </section>
  );
}
