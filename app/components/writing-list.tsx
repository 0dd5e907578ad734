import type { ReactNode } from "react";
import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import type { WritingListItem } from "../../features/writings/queries.ts";
import { writingPath } from "../../features/writings/paths.ts";

/** A page of writings with a "More" link carrying the cursor (a plain link: works without JavaScript). */
export function WritingList({
  items,
  nextCursor,
  moreHref,
  actions,
}: {
  items: WritingListItem[];
  nextCursor: string | null;
  moreHref: (cursor: string) => string;
  /** Controls shown under an item (the circle page's Pin for moderators). */
  actions?: (item: WritingListItem) => ReactNode;
}) {
  const { t, i18n } = useTranslation("writings");
  const locale = i18n.language as Locale;
  return (
    <>
      <ol className="writing-list" data-testid="writing-list">
        {items.map((item) => (
          <li key={item.id} className="writing-list-item">
            <h3 className="writing-list-title" lang={item.language}>
              <Link to={localizePath(writingPath(item), locale)}>
                {item.type === "serial" ? `${t("read.part", { number: item.partNumber })} ` : ""}
                {item.title}
              </Link>
            </h3>
            {item.excerpt ? (
              <p className="writing-list-excerpt" lang={item.language}>
                {item.excerpt}
              </p>
            ) : null}
            <p className="muted writing-list-facts">
              <span className="role-badge">{t(`types.${item.type}`)}</span>{" "}
              <Link to={localizePath(`/profile/${item.author.username}`, locale)}>{item.author.nickname}</Link> ·{" "}
              <time dateTime={item.publishedAt}>{formatDate(item.publishedAt, locale, { dateStyle: "medium", timeStyle: "short" })}</time> ·{" "}
              {t("read.views", { count: item.views })}
            </p>
            {actions?.(item)}
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
