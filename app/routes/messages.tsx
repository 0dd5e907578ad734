import { useEffect } from "react";
import { data, Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import type { Route } from "./+types/messages";
import { assertFormCsrf, getAppContext, notFound, readForm, requireViewer } from "../lib/context.server.ts";
import { withFormToken } from "../lib/circle-pages.server.ts";
import { formatDate, localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { AppError } from "../../common/app-error.ts";
import "../lib/centre-catalog.ts";
import { defaultAvatar } from "../../features/accounts/presenter.ts";
import { pageMeta } from "../lib/meta.ts";
import { useSessionStore } from "../lib/session-store.ts";
import { MessageCentreNav } from "../components/message-centre-nav.tsx";
import { dispatchIntent, failuresOnErrorScreen, formAction, type FormPost } from "../../server/lib/operation.ts";
import { markCategoryRead } from "../../features/messages/service.ts";
import { isMessageCentreCategory, messageCentreCategories, type MessageCentreCategory } from "../../features/messages/schema.ts";
import { listNotifications, type NotificationCategory } from "../../features/messages/notifications.ts";
import {
  deleteNotificationOperation,
  presentAnnouncement,
  presentNotification,
  publishAnnouncementOperation,
  type NotificationAnswer,
} from "../../features/messages/operations.ts";
import { listAnnouncements } from "../../features/messages/announcements.ts";
import { isSiteModerator } from "../../features/reports/visibility.ts";
import { AnnouncementForm } from "../components/announcement-form.tsx";
import { NotificationAbout, namesContent } from "../components/notification-about.tsx";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "centre:messages.title");

/** The notifications each message-centre page lists. */
const pageCategories: Record<MessageCentreCategory, readonly NotificationCategory[]> = {
  reply_comment: ["reply", "comment"],
  answers: ["answers"],
  like_attention: ["like", "favorite", "follow"],
  at: ["at"],
  system_notice: ["system"],
  announcements: [],
  chat: [],
};

/** Signed-in only: the category's notifications, newest first, 20 a page (`?cursor=`). Opening it marks it read. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  if (!isMessageCentreCategory(params.category)) notFound(request);
  const category = params.category as MessageCentreCategory;
  const cursor = pageUrl(request.url).searchParams.get("cursor") ?? undefined;
  if (category === "announcements") {
    const [page, moderator] = await Promise.all([
      listAnnouncements(app.db, viewer, app.locale, cursor),
      isSiteModerator(app.db, viewer.id),
    ]);
    return withFormToken(app, {
      category,
      items: page.items.map(presentAnnouncement),
      nextCursor: page.nextCursor,
      canAnnounce: moderator,
    });
  }
  const categories = pageCategories[category];
  const page = categories.length > 0 ? await listNotifications(app.db, viewer, categories, cursor) : { items: [], nextCursor: null };
  return withFormToken(app, { category, items: page.items.map(presentNotification), nextCursor: page.nextCursor, canAnnounce: false });
}

const announceForm = formAction(publishAnnouncementOperation, {
  done: () => data({ announced: true as const }),
});

const deleteForm = formAction(deleteNotificationOperation, {
  params: ({ form }) => ({ id: form.get("id") }),
  body: () => ({}),
  done: () => data({ deleted: true }),
  ...failuresOnErrorScreen,
});

/** "Mark all read": every line of the page's categories, as opening it does with JavaScript (works without). */
async function markAllRead({ app, params }: FormPost) {
  const viewer = app.viewer!;
  for (const read of messageCentreCategories[params.category as MessageCentreCategory]) await markCategoryRead(app.db, viewer.id, read);
  return data({ allRead: true as const });
}

/** Deleting a notification (a plain form post; the list comes back without it). */
export async function action({ context, request, params }: Route.ActionArgs) {
  const app = getAppContext(context);
  requireViewer(app);
  const form = await readForm(request);
  assertFormCsrf(app, form);
  if (!isMessageCentreCategory(params.category)) throw new AppError("not_found");
  return dispatchIntent({ app, request, form, params }, { delete: deleteForm, announce: announceForm, read_all: markAllRead });
}

/** What one line says, in the page's language: "Li Lei and 9 others liked your article". */
function NotificationText({ item }: { item: NotificationAnswer }) {
  const { t, i18n } = useTranslation("centre");
  const locale = i18n.language as Locale;
  const [first] = item.actors;
  const actor = first ? <Link to={localizePath(`/profile/${first.username}`, locale)}>{first.nickname}</Link> : t("messages.someone");
  const others = item.count - 1;
  const target =
    item.subject.url === null ? (
      <span className="notification-target">{item.subject.title}</span>
    ) : (
      <Link to={localizePath(`/messages/open/${item.id}`, locale)} className="notification-target">
        {item.subject.title}
      </Link>
    );
  if (item.category === "announcements") {
    return (
      <>
        <strong className="announcement-title">{item.subject.title}</strong>
        <span className="announcement-body">{item.text}</span>
      </>
    );
  }
  if (item.decision) {
    // A moderation decision, worded for whoever reported it or wrote it, with the moderator's note.
    const { action, role, note } = item.decision;
    return (
      <>
        {t(`messages.decision.${role}.${action}`, { defaultValue: t("messages.system.moderation_decided") })} {target}
        {note ? <span className="notification-note">{t("messages.decision.note", { note })}</span> : null}
      </>
    );
  }
  if (item.category === "system" && item.subject.type !== "user") {
    // A notice about content (a moderation decision): the notice, then what it is about.
    return (
      <>
        {t(`messages.system.${item.verb.replace(".", "_")}`, { defaultValue: t("messages.system.other") })} {target}
      </>
    );
  }
  if (item.category === "system" && item.verb === "feedback.status_changed") {
    return (
      <>
        {t("messages.system.feedback_status_changed")}{" "}
        <Link to={localizePath("/feedback", locale)}>{t("messages.system.feedback_link")}</Link>
      </>
    );
  }
  if (item.category === "system") {
    return <>{t(`messages.system.${item.verb.replace(".", "_")}`, { defaultValue: t("messages.system.other") })}</>;
  }
  if (namesContent(item)) return <NotificationAbout item={item} actor={actor} />;
  if (item.category === "follow")
    return (
      <>
        {actor} {t("messages.lines.follow")}
      </>
    );
  return (
    <>
      {actor}
      {others > 0 ? ` ${t("messages.lines.and_others", { count: others })}` : null} {t(`messages.lines.${item.category}`)} {target}
    </>
  );
}

export default function MessageCentre({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(["common", "centre"]);
  const locale = i18n.language as Locale;
  const { category, items, nextCursor, csrfToken, canAnnounce } = loaderData;
  const store = useSessionStore();

  useEffect(() => {
    for (const read of messageCentreCategories[category]) {
      void store.markRead(read).catch(() => undefined);
    }
  }, [category, store]);

  const here = localizePath(`/messages/${category}`, locale);
  return (
    <div className="message-centre">
      <MessageCentreNav />
      <section className="panel message-list" aria-labelledby="message-category-title">
        <h2 id="message-category-title" className="page-title">
          {t(`centre:messages.category_${category}`)}
        </h2>
        {items.some((item) => item.unread) ? (
          <Form method="post" action={here} className="notification-read-all">
            <input type="hidden" name="csrftoken" value={csrfToken} />
            <button type="submit" name="intent" value="read_all" className="button" data-testid="mark-all-read">
              {t("centre:messages.about.mark_all_read")}
            </button>
          </Form>
        ) : null}
        {canAnnounce ? <AnnouncementForm csrfToken={csrfToken} action={here} answer={actionData} /> : null}
        {items.length > 0 ? (
          <ul className="notification-list" data-testid="notifications">
            {items.map((item) => (
              <li
                key={item.id}
                id={item.category === "announcements" ? `announcement-${item.id}` : undefined}
                className={item.unread ? "notification unread" : "notification"}
                data-testid="notification"
              >
                <img className="site-avatar-image" src={item.actors[0]?.avatar ?? defaultAvatar} alt="" width={32} height={32} />
                <p className="notification-text">
                  {item.unread ? <span className="visually-hidden">{t("centre:messages.unread_marker")} </span> : null}
                  <NotificationText item={item} />
                </p>
                <time className="muted" dateTime={item.created_at}>
                  {formatDate(item.created_at, locale, { dateStyle: "medium", timeStyle: "short" })}
                </time>
                {item.category === "announcements" ? null : (
                  <Form method="post" action={here} className="notification-delete">
                    <input type="hidden" name="csrftoken" value={csrfToken} />
                    <input type="hidden" name="id" value={item.id} />
                    <button type="submit" name="intent" value="delete" className="button" aria-label={t("centre:messages.delete_label")}>
                      {t("centre:messages.delete")}
                    </button>
                  </Form>
                )}
              </li>
            ))}
          </ul>
        ) : (
          <EmptyState description={t("centre:messages.empty")} />
        )}
        {nextCursor ? (
          <Link className="button" to={`${here}?cursor=${nextCursor}`}>
            {t("centre:messages.more")}
          </Link>
        ) : null}
      </section>
    </div>
  );
}
