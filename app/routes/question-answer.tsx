import { Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/question-answer";
import { assertFormCsrf, getAppContext, readForm } from "../lib/context.server.ts";
import { answerPage, answerPageIntents, type AnswerEditFailure, type AnswerPageData } from "../lib/question-pages.server.ts";
import { dispatchIntent, requireSignedIn } from "../../server/lib/operation.ts";
import { localeFromPath, localizePath, type Locale } from "../../common/locale.ts";
import { metaDescription, readingMeta } from "../lib/book-meta.ts";
import { pageMeta } from "../lib/meta.ts";
import { getI18n } from "../../common/i18n.ts";
import { Breadcrumb } from "../components/breadcrumb.tsx";
import { AnswerCard } from "../components/answer-card.tsx";
import { HiddenNotice } from "../components/hidden-notice.tsx";
import { CommentSection, commentAnswerOf } from "../components/comment-section.tsx";
import { contentStylesheets, RenderedContent } from "../components/rendered-content.tsx";
import { questionStylesheets } from "../components/question-parts.tsx";
import "../lib/questions-catalog.ts";

export const links = () => [...contentStylesheets, ...questionStylesheets];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta: Route.MetaFunction = ({ location, loaderData }) => {
  if (!loaderData) return pageMeta(location, "errors:not_found");
  const { question, answer, origin } = loaderData;
  const locale = localeFromPath(location.pathname);
  const title = getI18n(locale).t("questions:answer.meta_title", { name: answer.author.nickname, title: question.title });
  const url = (path: string) => origin + localizePath(path, locale);
  return readingMeta(
    location,
    title,
    metaDescription(answer.excerpt),
    { origin, path: answer.url, locale },
    {
      "@type": "QAPage",
      mainEntity: {
        "@type": "Question",
        name: question.title,
        text: question.excerpt || question.title,
        answerCount: question.answerCount,
        url: url(question.url),
        [answer.accepted ? "acceptedAnswer" : "suggestedAnswer"]: {
          "@type": "Answer",
          text: answer.excerpt,
          upvoteCount: answer.likeCount,
          dateCreated: answer.publishedAt,
          url: url(answer.url),
          author: { "@type": "Person", name: answer.author.nickname, url: url(`/profile/${answer.author.username}`) },
        },
      },
    },
  );
};

/** `/circles/{cid}/questions/{id}/{username}`: one answer on its own page (shareable), `?edit=1` for its author. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  return answerPage(getAppContext(context), request, params);
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  requireSignedIn(app.viewer);
  const form = await readForm(request);
  assertFormCsrf(app, form);
  return dispatchIntent({ app, request, form, params }, await answerPageIntents(app, request, params));
}

export default function QuestionAnswer({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("questions");
  const locale = i18n.language as Locale;
  const page = loaderData as AnswerPageData;
  const { question, answer, circle, csrfToken } = page;
  const result = actionData as AnswerEditFailure | { confirmDeleteAnswer?: number } | undefined;
  const failure = result && "editForm" in result ? result : undefined;
  const confirmDelete = Boolean(result && "confirmDeleteAnswer" in result && result.confirmDeleteAnswer === answer.id);
  const path = (to: string) => localizePath(to, locale);
  const editing = page.edit ?? (failure ? { content: failure.values.content, version: failure.current?.version ?? 0 } : null);
  return (
    <>
      <Breadcrumb
        label={t("common:circles.breadcrumb")}
        trail={[
          { to: path(`/circles/${circle.id}`), label: circle.name },
          { to: path(`/circles/${circle.id}/questions`), label: t("list.title") },
          { to: path(question.url), label: question.title },
        ]}
        current={t("answer.by", { name: answer.author.nickname })}
      />
      <section className="panel" aria-labelledby="answer-question-title">
        <p className="muted">{t("answer.question")}</p>
        <h1 id="answer-question-title" className="page-title question-title">
          <Link to={path(question.url)}>{question.title}</Link>
        </h1>
        {question.excerpt ? <p>{question.excerpt}</p> : null}
        <Link to={`${path(question.url)}#answers`} data-testid="all-answers">
          {t("answer.all_answers", { count: question.answerCount })}
        </Link>
      </section>
      <AnswerCard
        answer={answer}
        questionTitle={question.title}
        interactions={page.interactions}
        csrfToken={csrfToken}
        canDelete={page.can.delete}
        confirmDelete={confirmDelete}
        id="answer"
        label={t("answer.by", { name: answer.author.nickname })}
        panel
        testId="answer-page"
        content={
          <>
            <HiddenNotice state={page.moderation} />
            {page.notice === "edited" ? (
              <p className="notice" role="status">
                {t("question.notice_edited")}
              </p>
            ) : null}
            {editing && csrfToken && page.can.edit ? (
              <AnswerEditForm editing={editing} failure={failure} csrfToken={csrfToken} cancelTo={path(answer.url)} />
            ) : (
              <RenderedContent html={answer.html} />
            )}
          </>
        }
        actions={
          page.can.edit && !editing ? (
            <Link className="button" to={`${path(answer.url)}?edit=1`} data-testid="edit-answer">
              {t("answer.edit")}
            </Link>
          ) : null
        }
      />
      <CommentSection
        comments={page.comments}
        csrfToken={csrfToken}
        signedIn={csrfToken !== null}
        failure={commentAnswerOf(actionData).failure}
        actionData={commentAnswerOf(actionData).asked}
      />
      {page.others.length > 0 ? (
        <section className="panel" aria-labelledby="other-answers-title">
          <h2 id="other-answers-title">{t("answer.other_answers")}</h2>
          <ul className="question-links" data-testid="other-answers">
            {page.others.map((other) => (
              <li key={other.id}>
                <Link to={path(other.url)}>{other.author.nickname}</Link>
                {other.accepted ? <span className="accepted-badge">{t("question.accepted")}</span> : null}
                <p className="muted">{other.excerpt}</p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

/** The author's edit form of an answer; a stale version shows the saved text and keeps the typed one. */
function AnswerEditForm({
  editing,
  failure,
  csrfToken,
  cancelTo,
}: {
  editing: { content: string; version: number };
  failure: AnswerEditFailure | undefined;
  csrfToken: string;
  cancelTo: string;
}) {
  const { t } = useTranslation("questions");
  return (
    <Form method="post" className="answer-box" data-testid="edit-answer-form">
      <input type="hidden" name="csrftoken" value={csrfToken} />
      <input type="hidden" name="intent" value="edit-answer" />
      <input type="hidden" name="version" value={failure?.current ? failure.current.version : editing.version} />
      {failure?.formError ? (
        <p className="form-error" role="alert">
          {failure.current ? t("answer.conflict") : failure.formError}
        </p>
      ) : null}
      {failure?.current ? (
        <section aria-label={t("answer.saved_version")}>
          <h2>{t("answer.saved_version")}</h2>
          <pre className="editor-conflict-text">{failure.current.content}</pre>
        </section>
      ) : null}
      <div className="form-field">
        <label htmlFor="answer-edit">{t("question.answer_label")}</label>
        <textarea
          id="answer-edit"
          name="content"
          className="text-input"
          rows={12}
          defaultValue={failure ? failure.values.content : editing.content}
          aria-invalid={failure?.fieldErrors?.content ? true : undefined}
          data-testid="answer-content"
        />
        {failure?.fieldErrors?.content ? <div className="form-error">{failure.fieldErrors.content}</div> : null}
      </div>
      <div className="form-actions">
        <Link className="button" to={cancelTo}>
          {t("answer.cancel")}
        </Link>
        <button type="submit" className="button button-primary" data-testid="save-answer">
          {t("answer.save")}
        </button>
      </div>
    </Form>
  );
}
