import { Fragment } from "react";
import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import type { FeedCardData } from "../lib/home-feed.ts";
import { AdSlot } from "./ad-slot.tsx";

const defaultAvatar = "/default-avatar.svg";

/** Feed kinds named by their own label (a writing's card names its type instead). */
const kindLabels = new Set(["book", "chapter", "question", "answer"]);

/**
 * The home feed's cards (Juejin's layout): author and circle, title, excerpt, views, likes and comments,
 * the cover as a thumbnail on the right. Writings, new books and new chapters alike; a "More" link
 * carries the cursor (works without JavaScript).
 */
export function FeedList({
  cards,
  nextCursor,
  moreHref,
  withAd = false,
}: {
  cards: FeedCardData[];
  nextCursor: string | null;
  moreHref: (cursor: string) => string;
  /** An ad slot between the third and fourth cards (the home feed). */
  withAd?: boolean;
}) {
  const { t, i18n } = useTranslation(["common", "writings"]);
  const locale = i18n.language as Locale;
  return (
    <>
      <ol className="feed-list" data-testid="feed-list">
        {cards.map((card, index) => (
          <Fragment key={card.key}>
            {withAd && index === 3 ? <AdSlot placement="feed" as="li" /> : null}
            <li className="feed-card" data-kind={card.label}>
              <div className="feed-card-body">
                <p className="feed-card-meta">
                  <img className="feed-avatar" src={card.author.avatar ?? defaultAvatar} alt="" width={22} height={22} loading="lazy" />
                  <Link to={localizePath(`/profile/${card.author.username}`, locale)} className="feed-author">
                    {card.author.nickname}
                  </Link>
                  <span aria-hidden="true">·</span>
                  <time dateTime={card.at}>{formatDate(card.at, locale, { dateStyle: "medium" })}</time>
                  {card.circle ? (
                    <>
                      <span aria-hidden="true">·</span>
                      <Link to={localizePath(`/circles/${card.circle.id}`, locale)} className="feed-circle">
                        {card.circle.name}
                      </Link>
                    </>
                  ) : null}
                  <span className="role-badge">
                    {kindLabels.has(card.label) ? t(`home.kind_${card.label}`) : t(`writings:types.${card.label}`)}
                  </span>
                </p>
                <h3 className="feed-card-title" lang={card.language ?? undefined}>
                  <Link to={localizePath(card.question?.path ?? card.path, locale)}>
                    {card.partNumber !== null ? `${t("writings:read.part", { number: card.partNumber })} ` : ""}
                    {card.title}
                  </Link>
                </h3>
                {card.chapters && card.chapters.length > 0 ? (
                  <div className="feed-card-chapters" data-testid="feed-chapters">
                    <span className="muted">{t("home.new_chapters", { count: card.chapters.length })}</span>
                    <ul>
                      {card.chapters.map((chapter) => (
                        <li key={chapter.id}>
                          <Link to={localizePath(chapter.path, locale)}>
                            {chapter.number !== null ? `${t("home.chapter_number", { number: chapter.number })} ` : ""}
                            {chapter.title}
                          </Link>
                        </li>
                      ))}
                    </ul>
                  </div>
                ) : card.question ? (
                  <p className="feed-card-excerpt" lang={card.language ?? undefined} data-testid="feed-answer">
                    <strong>{card.author.nickname}</strong>
                    {t("home.answer_colon")}
                    {card.excerpt}{" "}
                    <Link to={localizePath(card.path, locale)} className="feed-card-answer-link">
                      {t("home.read_answer")}
                    </Link>
                  </p>
                ) : card.kind === "chapter" ? (
                  <p className="feed-card-excerpt">{t("home.chapter_of", { number: card.chapterNumber, book: card.bookName })}</p>
                ) : card.excerpt ? (
                  <p className="feed-card-excerpt" lang={card.language ?? undefined}>
                    {card.excerpt}
                  </p>
                ) : null}
                <ul className="feed-card-counts">
                  <li>{t("home.views", { count: card.views })}</li>
                  {card.likes > 0 ? <li>{t("home.likes", { count: card.likes })}</li> : null}
                  {card.comments !== null ? <li>{t("home.comments", { count: card.comments })}</li> : null}
                </ul>
              </div>
              {card.coverFileId ? (
                <img className="feed-card-cover" src={`/attach/${card.coverFileId}`} alt="" width={120} height={80} loading="lazy" />
              ) : null}
            </li>
          </Fragment>
        ))}
      </ol>
      {nextCursor ? (
        <p className="writing-list-more">
          <Link className="button" to={moreHref(nextCursor)} preventScrollReset>
            {t("writings:list.more")}
          </Link>
        </p>
      ) : null}
    </>
  );
}
