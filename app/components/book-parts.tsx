import type { ReactNode } from "react";
import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import type { BookState } from "../../features/books/schema.ts";
import type { BookSummary } from "../../features/books/presenter.ts";
import bookStyles from "../styles/books.css?url";
import "../../features/books/catalog.ts";
import { ViewBeacon } from "./view-beacon.tsx";
import { circleColor } from "./circle-logo.tsx";

/** The book pages' stylesheet: routes showing books add it to their links. */
export const bookStylesheets = [{ rel: "stylesheet", href: bookStyles }];

/**
 * A book's cover, or for a book without one a cover drawn from its title on its circle's colour
 * (no image request): the title in white on the colour, as a printed cover would carry it.
 */
export function BookCover({
  cover,
  name,
  circleId,
  size,
}: {
  cover: string | null;
  name: string;
  circleId: number;
  size: "small" | "large";
}) {
  const { t } = useTranslation("books");
  const [width, height] = size === "large" ? [150, 200] : [72, 96];
  if (cover)
    return (
      <img className={`book-cover book-cover-${size}`} src={cover} alt={t("read.cover_alt", { name })} width={width} height={height} />
    );
  return (
    <span
      className={`book-cover book-cover-${size} book-cover-drawn`}
      style={{ backgroundColor: circleColor(circleId) }}
      role="img"
      aria-label={t("read.cover_alt", { name })}
      data-testid="book-cover-drawn"
    >
      <span className="book-cover-title" aria-hidden="true">
        {name}
      </span>
    </span>
  );
}

export function BookStateBadge({ state }: { state: BookState }) {
  const { t } = useTranslation("books");
  return (
    <span className={`book-state-badge book-state-${state}`} data-state={state}>
      {t(`state.${state}`)}
    </span>
  );
}

/**
 * Counts this visit (once per visitor per day) by loading a 1×1 image from the API: it works on
 * cached pages and without JavaScript.
 */
export function ViewCounter({ bookId }: { bookId: number }) {
  return <ViewBeacon type="book" id={bookId} className="view-pixel" />;
}

/** One book in a list: cover, name, author, state, chapters, latest chapter, last updated. */
export function BookCard({ book, extra }: { book: BookSummary; extra?: ReactNode }) {
  const { t, i18n } = useTranslation("books");
  const locale = i18n.language as Locale;
  const path = localizePath(`/circles/${book.circleId}/books/${book.id}`, locale);
  return (
    <li className="book-card">
      <BookCover cover={book.cover} name={book.name} circleId={book.circleId} size="small" />
      <div>
        <h3 className="book-card-title">
          <Link to={path}>{book.name}</Link>
        </h3>
        <p className="muted">
          {t("read.by", { name: book.author.nickname })} · <BookStateBadge state={book.state} /> ·{" "}
          {t("read.chapter_count", { count: book.chapterCount })} · {t("read.views", { count: book.views })}
        </p>
        {book.latestChapter ? (
          <p>
            {t("read.latest")}:{" "}
            <Link to={`${path}/chapters/${book.latestChapter.id}`}>
              {t("read.chapter_heading", { number: book.latestChapter.number, title: book.latestChapter.title })}
            </Link>
          </p>
        ) : null}
        <p className="muted">
          <time dateTime={book.updatedAt}>{t("read.updated", { date: formatDate(book.updatedAt, locale) })}</time>
        </p>
        {extra}
      </div>
    </li>
  );
}
