import { Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/account-drafts";
import { assertFormCsrf, getAppContext, readForm, requireViewer } from "../lib/context.server.ts";
import { withFormToken } from "../lib/circle-pages.server.ts";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { AccountLayout } from "../components/account-layout.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import { listDrafts } from "../../features/writings/drafts.ts";
import { deleteDraftOperation } from "../../features/writings/draft-operations.ts";
import { formAction } from "../../server/lib/operation.ts";
import { AppError, type ErrorCode } from "../../common/app-error.ts";
import { draftKeySchema } from "../../features/writings/schema.ts";
import "../lib/editor-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "editor:drafts.title");
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** Where a draft is reopened: its key names the editor and what it edits (`new-article-7`, `edit-42`, `translate-42-en`, `series-42`, `ask-7`, `question-12`, `answer-12`). */
function draftEditorPath(key: string, fields: Record<string, unknown>): string | null {
  const circle = typeof fields.circle_id === "number" ? fields.circle_id : null;
  const ask = /^ask-(\d+)$/.exec(key);
  if (ask) return `/circles/${ask[1]}/ask`;
  const created = /^new-(article|post)-(\d+)$/.exec(key);
  if (created) return created[1] === "post" ? `/circles/${created[2]}/post` : `/circles/${created[2]}/write/article`;
  if (circle === null) return null;
  const question = /^question-(\d+)$/.exec(key);
  if (question) return `/circles/${circle}/ask?edit=${question[1]}`;
  const answer = /^answer-(\d+)$/.exec(key);
  if (answer) return `/circles/${circle}/questions/${answer[1]}#answer-box`;
  const page = fields.type === "post" ? `/circles/${circle}/post` : `/circles/${circle}/write/article`;
  const edit = /^edit-(\d+)$/.exec(key);
  if (edit) return `${page}?edit=${edit[1]}`;
  const translate = /^translate-(\d+)-(zh-CN|en)$/.exec(key);
  if (translate) return `${page}?translate=${translate[1]}&language=${translate[2]}`;
  const series = /^series-(\d+)$/.exec(key);
  if (series) return `${page}?series=${series[1]}`;
  return null;
}

export async function loader({ context }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  const drafts = (await listDrafts(app.db, viewer.id)).map((draft) => ({
    key: draft.key,
    title: draft.title,
    updatedAt: draft.updated_at,
    href: draftEditorPath(draft.key, draft.fields),
  }));
  return withFormToken(app, { username: viewer.username, drafts });
}

export async function action({ context, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  requireViewer(app);
  const form = await readForm(request);
  assertFormCsrf(app, form);
  // A key that names no draft deletes nothing (the page says nothing either).
  if (!draftKeySchema.safeParse(form.get("key")).success) return { deleted: false };
  const remove = formAction(deleteDraftOperation, {
    params: ({ form }) => ({ key: form.get("key") }),
    done: () => ({ deleted: true }),
    // A draft already gone (deleted in another tab) is deleted all the same.
    errorScreen: (error) => error.status === 401,
    failed: (failure) => {
      if (failure.code === "not_found") return { deleted: true };
      throw new AppError(failure.code as ErrorCode);
    },
  });
  return remove({ app, request, form, params: {} });
}

export default function AccountDrafts({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("editor");
  const locale = i18n.language as Locale;
  return (
    <AccountLayout username={loaderData.username}>
      <section className="panel" aria-labelledby="drafts-title">
        <h1 id="drafts-title" className="page-title">
          {t("drafts.title")}
        </h1>
        {actionData?.deleted ? (
          <p className="notice" role="status">
            {t("drafts.deleted")}
          </p>
        ) : null}
        {loaderData.drafts.length === 0 ? (
          <EmptyState description={t("drafts.empty")} />
        ) : (
          <ul className="draft-list" data-testid="draft-list">
            {loaderData.drafts.map((draft) => (
              <li key={draft.key} className="draft-list-item">
                <strong>{draft.title || t("drafts.untitled")}</strong>{" "}
                <span className="muted">
                  {t("drafts.saved_at", { date: formatDate(draft.updatedAt, locale, { dateStyle: "medium", timeStyle: "short" }) })}
                </span>
                {draft.href ? (
                  <Link className="button" to={localizePath(draft.href, locale)}>
                    {t("drafts.open")}
                  </Link>
                ) : null}
                <Form method="post" className="inline-form">
                  <input type="hidden" name="csrftoken" value={loaderData.csrfToken} />
                  <input type="hidden" name="key" value={draft.key} />
                  <button type="submit" className="button button-danger">
                    {t("drafts.delete")}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </section>
    </AccountLayout>
  );
}
