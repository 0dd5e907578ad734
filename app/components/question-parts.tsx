import type { ReactNode } from "react";
import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { defaultAvatar } from "../../features/accounts/presenter.ts";
import type { AnswerItem, PersonCard, QuestionListItem, SimilarQuestion } from "../../features/questions/types.ts";
import questionStyles from "../styles/questions.css?url";
import "../lib/questions-catalog.ts";
import { FramedAvatar, WornBadge } from "./worn-items.tsx";

/** The question pages' own stylesheet (lists, cards, the answer box, the side panel). */
export const questionStylesheets = [{ rel: "stylesheet", href: questionStyles }];

export const dateTime: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };

/** A page of questions with their answer count, the best answer's opening lines, categories and time; "More" carries the cursor. */
export function QuestionList({
  items,
  nextCursor,
  moreHref,
}: {
  items: QuestionListItem[];
  nextCursor: string | null;
  moreHref: (cursor: string) => string;
}) {
  const { t, i18n } = useTranslation("questions");
  const locale = i18n.language as Locale;
  return (
    <>
      <ol className="question-list" data-testid="question-list">
        {items.map((item) => (
          <li key={item.id} className="question-list-item">
            <h3 className="question-list-title" lang={item.language}>
              <Link to={localizePath(item.url, locale)}>{item.title}</Link>
            </h3>
            {item.bestAnswer ? (
              <p className="question-list-best" data-testid="best-answer">
                {item.bestAnswer.accepted ? <span className="accepted-badge">{t("list.accepted")}</span> : null}
                <strong>{t("list.best_by", { name: item.bestAnswer.author.nickname })}</strong>
                {item.bestAnswer.excerpt}
              </p>
            ) : item.excerpt ? (
              <p className="question-list-excerpt" lang={item.language}>
                {item.excerpt}
              </p>
            ) : null}
            <p className="muted question-list-facts">
              <span data-testid="answer-count">{t("list.answer_count", { count: item.answerCount })}</span> ·{" "}
              <Link to={localizePath(`/profile/${item.author.username}`, locale)}>{item.author.nickname}</Link> ·{" "}
              <time dateTime={item.publishedAt}>{t("list.asked_at", { date: formatDate(item.publishedAt, locale, dateTime) })}</time>
              {item.categories.map((category) => (
                <span key={category.id} className="role-badge">
                  {category.name}
                </span>
              ))}
            </p>
          </li>
        ))}
      </ol>
      {nextCursor ? (
        <p className="writing-list-more">
          <Link className="button" to={moreHref(nextCursor)} preventScrollReset>
            {t("list.more")}
          </Link>
        </p>
      ) : null}
    </>
  );
}

/** An author card: avatar, nickname linking to the profile, username. */
export function PersonLine({ person, children }: { person: PersonCard; children?: ReactNode }) {
  const { i18n } = useTranslation("questions");
  const locale = i18n.language as Locale;
  return (
    <div className="answer-author" data-testid="answer-author">
      <FramedAvatar frame={person.frame}>
        <img className="answer-author-avatar" src={person.avatar ?? defaultAvatar} alt="" width={32} height={32} />
      </FramedAvatar>
      <Link to={localizePath(`/profile/${person.username}`, locale)}>{person.nickname}</Link>
      <WornBadge item={person.badge} />
      <span className="muted">@{person.username}</span>
      {children}
    </div>
  );
}

/** Published and edited times of an answer (Asia/Shanghai). */
export function AnswerTimes({ answer }: { answer: Pick<AnswerItem, "publishedAt" | "editedAt"> }) {
  const { t, i18n } = useTranslation("questions");
  const locale = i18n.language as Locale;
  return (
    <p className="muted answer-times">
      <time dateTime={answer.publishedAt}>{t("question.published", { date: formatDate(answer.publishedAt, locale, dateTime) })}</time>
      {answer.editedAt ? (
        <>
          {" · "}
          <time dateTime={answer.editedAt} data-testid="answer-edited-at">
            {t("question.edited", { date: formatDate(answer.editedAt, locale, dateTime) })}
          </time>
        </>
      ) : null}
    </p>
  );
}

/** A short list of questions (similar, hot) for the side panel and the ask page. */
export function QuestionLinks({ items, testId, empty }: { items: SimilarQuestion[]; testId: string; empty?: string }) {
  const { t, i18n } = useTranslation("questions");
  const locale = i18n.language as Locale;
  if (items.length === 0) return empty ? <p className="muted">{empty}</p> : null;
  return (
    <ul className="question-links" data-testid={testId}>
      {items.map((item) => (
        <li key={item.id}>
          <Link to={localizePath(item.url, locale)}>{item.title}</Link>{" "}
          <span className="muted">{t("list.answer_count", { count: item.answerCount })}</span>
        </li>
      ))}
    </ul>
  );
}
