import type { ReactNode } from "react";
import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { localizePath, type Locale } from "../../common/locale.ts";
import type { NotificationAnswer } from "../../features/messages/operations.ts";

/** The categories whose lines name the content they are about ("bob commented on your article “…”: …"). */
const namedCategories = new Set(["comment", "reply", "at", "like", "favorite", "answers"]);

/** Whether the line is worded by `NotificationAbout`: a comment's line needs what it is on (still readable). */
export function namesContent(item: NotificationAnswer): boolean {
  if (!namedCategories.has(item.category) || item.subject.url === null) return false;
  return item.subject.type !== "comment" || item.context !== undefined;
}

/**
 * What happened, naming the content: the kind and title of what was commented on, liked or
 * answered (a link to the line's target), then the comment's first words. Only for lines
 * `namesContent` accepts; follows and system notices keep their own sentence.
 */
export function NotificationAbout({ item, actor }: { item: NotificationAnswer; actor: ReactNode }): ReactNode {
  const { t, i18n } = useTranslation("centre");
  const locale = i18n.language as Locale;
  const onComment = item.subject.type === "comment";
  const content = onComment && item.context ? item.context : item.subject;
  const key = (item.category === "like" || item.category === "favorite") && onComment ? `${item.category}_comment` : item.category;
  const kind = t(`messages.kinds.${content.type}`, { defaultValue: content.type });
  const others = item.count - 1;
  const after = t(`messages.about.${key}_after`);
  return (
    <>
      {actor}
      {others > 0 ? ` ${t("messages.lines.and_others", { count: others })}` : null} {t(`messages.about.${key}_before`, { kind })}
      {t("messages.about.gap")}
      <Link to={localizePath(`/messages/open/${item.id}`, locale)} className="notification-target">
        {t("messages.about.quote", { title: content.title })}
      </Link>
      {after}
      {onComment ? (
        <>
          {t("messages.about.colon")}
          <span className="notification-excerpt">{item.subject.title}</span>
        </>
      ) : null}
      {item.mentioned ? <span className="notification-mentioned">{t("messages.about.mentioned")}</span> : null}
    </>
  );
}
