import { useEffect } from "react";
import { Form, Link, redirect, useRevalidator } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/messages-chat";
import { getAppContext, requireViewer } from "../lib/context.server.ts";
import { withFormToken } from "../lib/circle-pages.server.ts";
import { formatDate, localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import "../lib/centre-catalog.ts";
import { pageMeta } from "../lib/meta.ts";
import { useSessionStore } from "../lib/session-store.ts";
import { MessageCentreNav } from "../components/message-centre-nav.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import { listConversations } from "../../features/chats/service.ts";
import { listConversationsOperation } from "../../features/chats/operations.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "centre:chat.title");

/** `/messages/chat`: one's conversations, newest message first (`?cursor=` pages; `?to=name` opens a chat). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  const url = pageUrl(request.url);
  const to = url.searchParams.get("to")?.trim();
  if (to) throw redirect(localizePath(`/messages/chat/${encodeURIComponent(to)}`, app.locale));
  const page = await listConversations(app.db, viewer, url.searchParams.get("cursor") ?? undefined);
  const answer = listConversationsOperation.present({ viewer, page }, { viewer, locale: app.locale });
  return withFormToken(app, { conversations: answer.results, nextCursor: answer.next_cursor });
}

export default function ChatList({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(["centre"]);
  const locale = i18n.language as Locale;
  const store = useSessionStore();
  const revalidator = useRevalidator();
  const { conversations, nextCursor } = loaderData;

  // A message to or from the viewer moves its conversation up: read the list again.
  useEffect(() => store.onLive((message) => void (message.sse_type === "chat" && revalidator.revalidate())), [store, revalidator]);

  const here = localizePath("/messages/chat", locale);
  return (
    <div className="message-centre">
      <MessageCentreNav />
      <section className="panel message-list" aria-labelledby="chat-title">
        <h2 id="chat-title" className="page-title">
          {t("centre:chat.conversations")}
        </h2>
        <Form method="get" action={here} className="chat-start">
          <label htmlFor="chat-to">{t("centre:chat.start_label")}</label>
          <input id="chat-to" name="to" className="text-input" required maxLength={64} autoComplete="off" />
          <button type="submit" className="button">
            {t("centre:chat.start")}
          </button>
        </Form>
        {conversations.length > 0 ? (
          <ul className="notification-list" data-testid="conversations">
            {conversations.map((conversation) => {
              const last = conversation.last_message;
              const preview = last.text ?? t("centre:chat.image");
              return (
                <li
                  key={conversation.peer.username}
                  className={conversation.unread_count > 0 ? "notification unread" : "notification"}
                  data-testid="conversation"
                >
                  <img className="site-avatar-image" src={conversation.peer.avatar} alt="" width={32} height={32} />
                  <p className="notification-text">
                    <Link to={localizePath(`/messages/chat/${conversation.peer.username}`, locale)} className="notification-target">
                      {conversation.peer.nickname}
                    </Link>{" "}
                    <span className="chat-preview">
                      {last.mine ? t("centre:chat.you_prefix") : ""}
                      {preview}
                    </span>
                  </p>
                  {conversation.unread_count > 0 ? (
                    <span className="message-count" aria-label={t("centre:chat.new_messages", { count: conversation.unread_count })}>
                      {conversation.unread_count}
                    </span>
                  ) : null}
                  <time className="muted" dateTime={last.created_at}>
                    {formatDate(last.created_at, locale, { dateStyle: "medium", timeStyle: "short" })}
                  </time>
                </li>
              );
            })}
          </ul>
        ) : (
          <EmptyState description={t("centre:chat.empty")} />
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
