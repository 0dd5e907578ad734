import { lazy, Suspense } from "react";
import { commentIntentsFor, subjectOfParam } from "../lib/comment-pages.server.ts";
import { CommentSection, commentAnswerOf } from "../components/comment-section.tsx";
import { Form, Link, useLocation } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/question";
import { getAppContext, signedInFormPost } from "../lib/context.server.ts";
import { questionIntents, questionPage, type AnswerFormFailure, type QuestionPageData } from "../lib/question-pages.server.ts";
import { dispatchIntent } from "../../server/lib/operation.ts";
import { formatDate, localeFromPath, localizePath, type Locale } from "../../common/locale.ts";
import { metaDescription, readingMeta } from "../lib/book-meta.ts";
import { pageMeta } from "../lib/meta.ts";
import { Breadcrumb } from "../components/breadcrumb.tsx";
import { ActionBar } from "../components/action-bar.tsx";
import { AnswerCard } from "../components/answer-card.tsx";
import { HiddenNotice } from "../components/hidden-notice.tsx";
import { EntryList } from "../components/entry-list.tsx";
import { contentStylesheets, RenderedContent } from "../components/rendered-content.tsx";
import { dateTime, QuestionLinks, questionStylesheets } from "../components/question-parts.tsx";
import { answerSortValues } from "../../features/questions/constants.ts";
import type { AnswerItem } from "../../features/questions/types.ts";
import { answerJsonLd } from "../lib/question-meta.ts";
import "../lib/questions-catalog.ts";
import { ViewBeacon } from "../components/view-beacon.tsx";
import { AdSlot } from "../components/ad-slot.tsx";
import { NewAnswersNotice } from "../components/new-answers-notice.tsx";

/** The answer editor is its own chunk: readers who cannot answer (visitors, the first load of most pages) never load it. */
const AnswerEditor = lazy(() => import("../components/answer-editor.tsx").then((module) => ({ default: module.AnswerEditor })));

export const links = () => [...contentStylesheets, ...questionStylesheets];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** Title, description, canonical, hreflang and JSON-LD `QAPage` with the accepted and top answers. */
export const meta: Route.MetaFunction = ({ location, loaderData }) => {
  if (!loaderData) return pageMeta(location, "errors:not_found");
  const { question, answers, origin } = loaderData;
  const locale = localeFromPath(location.pathname);
  const url = (path: string) => origin + localizePath(path, locale);
  const answerLd = (answer: AnswerItem) => answerJsonLd(answer, url);
  const accepted = answers.items.find((answer) => answer.accepted);
  const suggested = answers.items.filter((answer) => !answer.accepted).slice(0, 5);
  return readingMeta(
    location,
    question.title,
    metaDescription(question.excerpt || answers.items[0]?.excerpt || question.title),
    { origin, path: question.url, locale },
    {
      "@type": "QAPage",
      mainEntity: {
        "@type": "Question",
        name: question.title,
        text: question.excerpt || question.title,
        answerCount: question.answer_count,
        dateCreated: question.published_at,
        author: question.author
          ? { "@type": "Person", name: question.author.nickname, url: url(`/profile/${question.author.username}`) }
          : undefined,
        ...(accepted ? { acceptedAnswer: answerLd(accepted) } : {}),
        ...(suggested.length > 0 ? { suggestedAnswer: suggested.map(answerLd) } : {}),
      },
    },
  );
};

/** `/circles/{cid}/questions/{id}`: the question and its answers. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  return questionPage(getAppContext(context), request, params);
}

/** Answer, follow, accept, withdraw, delete (asked first): plain form posts that come back here. */
export async function action(args: Route.ActionArgs) {
  return dispatchIntent(await signedInFormPost(args), { ...questionIntents, ...questionComments });
}

/** The question's comments (`comment`, `reply`, `edit-comment`, `delete-comment`), on the question of the URL. */
const questionComments = commentIntentsFor(subjectOfParam("question", "questionId"));

type Asked = { confirmDelete?: boolean; confirmDeleteAnswer?: number };

export default function Question({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("questions");
  const locale = i18n.language as Locale;
  const page = loaderData as QuestionPageData;
  const { question, circle, answers, csrfToken } = page;
  const answer = actionData as AnswerFormFailure | Asked | undefined;
  const failure = answer && "answerForm" in answer ? answer : undefined;
  const asked = answer && !("answerForm" in answer) ? answer : undefined;
  const path = (to: string) => localizePath(to, locale);
  const here = path(question.url);
  const sortHref = (sort: string) => (sort === "votes" ? `${here}#answers` : `${here}?sort=${sort}#answers`);
  // The question's comments wait behind "N comments" (the answers come first), open when the
  // reader is working with them: after a comment form was sent, or paging or sorting them.
  const query = new URLSearchParams(useLocation().search);
  const questionCommentsOpen =
    commentAnswerOf(actionData).failure !== undefined ||
    commentAnswerOf(actionData).asked !== undefined ||
    query.has("comments") ||
    query.has("comment_sort");
  return (
    <>
      <Breadcrumb
        label={t("common:circles.breadcrumb")}
        trail={[
          { to: path(`/circles/${circle.id}`), label: circle.name },
          { to: path(`/circles/${circle.id}/questions`), label: t("list.title") },
        ]}
        current={question.title}
      />
      <div className="question-layout">
        <div className="question-main">
          <article className="panel" id="question" aria-labelledby="question-title" lang={question.language} data-testid="question">
            <HiddenNotice state={page.moderation} />
            <h1 id="question-title" className="page-title question-title">
              {question.title}
            </h1>
            {page.notice ? (
              <p className="notice" role="status" data-testid="question-notice">
                {t(`question.notice_${page.notice}`, { defaultValue: "" })}
              </p>
            ) : null}
            <p className="muted question-facts">
              {question.author ? (
                <Link to={path(`/profile/${question.author.username}`)}>{t("question.asked_by", { name: question.author.nickname })}</Link>
              ) : null}
              <time dateTime={question.published_at}>{formatDate(question.published_at, locale, dateTime)}</time>
              <span>{t("question.views", { count: question.views })}</span>
            </p>
            {question.categories.length > 0 ? (
              <ul className="writing-categories" aria-label={t("question.categories")}>
                {question.categories.map((category) => (
                  <li key={category.id} className="role-badge">
                    {category.name}
                  </li>
                ))}
              </ul>
            ) : null}
            {question.html ? <RenderedContent html={question.html} lang={question.language} /> : null}
            {page.related.length > 0 ? (
              <section aria-labelledby="related-title">
                <h2 id="related-title">{t("question.related_entries")}</h2>
                <EntryList entries={page.related} testId="related-entries" />
              </section>
            ) : null}
            <div className="question-actions">
              {csrfToken && question.can.follow ? (
                <Form method="post" className="inline-form" preventScrollReset>
                  <input type="hidden" name="csrftoken" value={csrfToken} />
                  <input type="hidden" name="intent" value={question.following ? "unfollow" : "follow"} />
                  <button
                    type="submit"
                    className={question.following ? "button" : "button button-primary"}
                    aria-pressed={question.following}
                    title={t("question.follow_hint")}
                    data-testid="follow-question"
                  >
                    {question.following ? t("question.unfollow") : t("question.follow")}
                  </button>
                </Form>
              ) : null}
              {!page.signedIn ? (
                <Link className="button" to={`${path("/login")}?next=${encodeURIComponent(here)}`}>
                  {t("question.follow")}
                </Link>
              ) : null}
              {question.can.edit ? (
                <Link className="button" to={path(`/circles/${circle.id}/ask?edit=${question.id}`)} data-testid="edit-question">
                  {t("question.edit_question")}
                </Link>
              ) : null}
              {question.can.delete && csrfToken ? (
                <Form method="post" className="inline-form">
                  <input type="hidden" name="csrftoken" value={csrfToken} />
                  <input type="hidden" name="intent" value="delete" />
                  {asked?.confirmDelete ? <input type="hidden" name="confirmed" value="1" /> : null}
                  {asked?.confirmDelete ? (
                    <p className="form-error" role="alert">
                      {t("question.confirm_delete_question", { count: question.answer_count })}
                    </p>
                  ) : null}
                  <button
                    type="submit"
                    className="button button-danger"
                    data-testid={asked?.confirmDelete ? "confirm-delete" : "delete-question"}
                  >
                    {asked?.confirmDelete ? t("question.confirm_delete") : t("question.delete_question")}
                  </button>
                </Form>
              ) : null}
            </div>
            <ActionBar
              subjectType="question"
              subjectId={question.id}
              summary={page.interactions}
              csrfToken={csrfToken}
              title={question.title}
            />
          </article>
          <AdSlot placement="question" circleId={page.circle.id} subject={{ type: "question", id: question.id }} />
          <details className="panel question-comments" data-testid="question-comments" open={questionCommentsOpen || undefined}>
            <summary className="question-comments-toggle">{t("question.comments_toggle", { count: page.comments.page.total })}</summary>
            <CommentSection
              comments={page.comments}
              csrfToken={csrfToken}
              signedIn={csrfToken !== null}
              failure={commentAnswerOf(actionData).failure}
              actionData={commentAnswerOf(actionData).asked}
            />
          </details>

          <section className="panel" id="answers" aria-labelledby="answers-title">
            <div className="answers-toolbar">
              <h2 id="answers-title">{t("question.answers_heading", { count: question.answer_count })}</h2>
              <nav className="sort-nav" aria-label={t("question.sort_label")}>
                {answerSortValues.map((sort) => (
                  <Link key={sort} to={sortHref(sort)} aria-current={page.sort === sort ? "true" : undefined} preventScrollReset>
                    {t(`question.sort_${sort}`)}
                  </Link>
                ))}
              </nav>
            </div>
            <NewAnswersNotice questionPath={question.url} />
            {answers.items.length === 0 ? <p className="muted">{t("question.no_answers")}</p> : null}
            {answers.items.map((item) => (
              <QuestionAnswer key={item.id} answer={item} page={page} confirmDelete={asked?.confirmDeleteAnswer === item.id} />
            ))}
            {answers.nextCursor ? (
              <p className="writing-list-more">
                <Link
                  className="button"
                  to={`${here}?${new URLSearchParams({ ...(page.sort === "time" ? { sort: "time" } : {}), cursor: answers.nextCursor }).toString()}#answers`}
                >
                  {t("question.more_answers")}
                </Link>
              </p>
            ) : null}
          </section>

          <AnswerBox page={page} failure={failure} />
        </div>
        <aside className="question-side" aria-label={t("question.similar")}>
          <section className="panel" aria-labelledby="similar-title">
            <h2 id="similar-title">{t("question.similar")}</h2>
            <QuestionLinks items={page.similar} testId="similar-questions" empty={t("question.none")} />
          </section>
          <section className="panel" aria-labelledby="hot-title">
            <h2 id="hot-title">{t("question.hot")}</h2>
            <QuestionLinks items={page.hot} testId="hot-questions" empty={t("question.none")} />
          </section>
        </aside>
      </div>
      {/* Counts the view once a day, also for cached pages and without JavaScript. */}
      <ViewBeacon type="question" id={question.id} />
    </>
  );
}

/** One answer on the question page: the shared card with "Open on its own", accept/withdraw for the asker, and its comments toggle. */
function QuestionAnswer({ answer, page, confirmDelete }: { answer: AnswerItem; page: QuestionPageData; confirmDelete: boolean }) {
  const { t, i18n } = useTranslation("questions");
  const locale = i18n.language as Locale;
  const { question, csrfToken } = page;
  const open = page.answerComments?.answerId === answer.id ? page.answerComments.comments : null;
  const here = localizePath(question.url, locale);
  const toggle = new URLSearchParams({
    ...(page.sort === "time" ? { sort: "time" } : {}),
    ...(open ? {} : { answer_comments: String(answer.id) }),
  });
  return (
    <AnswerCard
      answer={answer}
      questionTitle={question.title}
      language={question.language}
      interactions={page.answerInteractions[answer.id]!}
      csrfToken={csrfToken}
      canDelete={page.answerCan[answer.id]?.delete ?? false}
      confirmDelete={confirmDelete}
      id={`answer-${answer.id}`}
      label={answer.author.nickname}
      testId="answer"
      actions={
        <>
          <Link to={localizePath(answer.url, locale)}>{t("question.answer_link")}</Link>
          <Link
            to={`${here}${toggle.size > 0 ? `?${toggle.toString()}` : ""}#answer-${answer.id}`}
            preventScrollReset
            aria-expanded={open !== null}
            aria-controls={open ? `answer-${answer.id}-comments` : undefined}
            data-testid="answer-comments-toggle"
          >
            {open ? t("question.hide_comments") : t("question.answer_comments", { count: answer.commentCount })}
          </Link>
          {question.can.accept && csrfToken ? (
            <Form method="post" className="inline-form" preventScrollReset>
              <input type="hidden" name="csrftoken" value={csrfToken} />
              <input type="hidden" name="intent" value={answer.accepted ? "withdraw" : "accept"} />
              <input type="hidden" name="answer_id" value={answer.id} />
              <button
                type="submit"
                className={answer.accepted ? "button" : "button button-primary"}
                data-testid={answer.accepted ? "withdraw-answer" : "accept-answer"}
              >
                {answer.accepted ? t("question.withdraw") : t("question.accept")}
              </button>
            </Form>
          ) : null}
        </>
      }
    >
      {open ? (
        <CommentSection
          comments={open}
          csrfToken={csrfToken}
          signedIn={page.signedIn}
          failure={undefined}
          actionData={undefined}
          embedded={{ id: `answer-${answer.id}-comments`, path: localizePath(answer.url, locale) }}
        />
      ) : null}
    </AnswerCard>
  );
}

/**
 * The answer box: for who may answer and has not, the answer editor (`AnswerEditor`); who has
 * answered gets "Edit my answer"; visitors the sign-in link; outsiders of a members' circle the
 * join hint. A refused post keeps the text and says why ("You have answered this question").
 */
function AnswerBox({ page, failure }: { page: QuestionPageData; failure?: AnswerFormFailure }) {
  const { t, i18n } = useTranslation("questions");
  const locale = i18n.language as Locale;
  const { question, csrfToken } = page;
  const here = localizePath(question.url, locale);
  let body: React.ReactNode;
  const mine = question.my_answer ?? failure?.existing ?? null;
  if (mine) {
    body = (
      <p className="question-actions">
        {failure?.formError ? (
          <span className="form-error" role="alert" data-testid="answer-error">
            {failure.formError}
          </span>
        ) : null}
        <Link className="button button-primary" to={`${localizePath(mine.url, locale)}?edit=1`} data-testid="edit-my-answer">
          {t("question.edit_my_answer")}
        </Link>
        <Link className="button" to={localizePath(mine.url, locale)}>
          {t("question.view_my_answer")}
        </Link>
      </p>
    );
  } else if (!page.signedIn) {
    body = (
      <Link className="button button-primary" to={`${localizePath("/login", locale)}?next=${encodeURIComponent(here)}`}>
        {t("question.sign_in_to_answer")}
      </Link>
    );
  } else if (!question.can.answer || !csrfToken) {
    body = <p className="muted">{t("question.join_to_answer")}</p>;
  } else {
    body = (
      <Suspense fallback={null}>
        <AnswerEditor
          csrfToken={csrfToken}
          circleId={page.circle.id}
          draft={page.answerDraft}
          initialText={failure?.values.content}
          formError={failure?.formError}
          error={failure?.fieldErrors?.content}
        />
      </Suspense>
    );
  }
  return (
    <section className="panel" id="answer-box" aria-labelledby="answer-box-title" data-testid="answer-box">
      <h2 id="answer-box-title">{mine ? t("question.view_my_answer") : t("question.your_answer")}</h2>
      {body}
    </section>
  );
}
