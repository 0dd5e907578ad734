import { pageServices } from "../lib/interaction-pages.server.ts";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/messages-chat-thread";
import { assertFormCsrf, getAppContext, readUploadForm, requireViewer } from "../lib/context.server.ts";
import { withFormToken } from "../lib/circle-pages.server.ts";
import { formatDate, localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { AppError } from "../../common/app-error.ts";
import { idFromText } from "../../common/id.ts";
import "../lib/centre-catalog.ts";
import { pageMeta } from "../lib/meta.ts";
import { postJson } from "../lib/post-json.ts";
import { useSessionStore, type StreamMessage } from "../lib/session-store.ts";
import { MessageCentreNav } from "../components/message-centre-nav.tsx";
import { dispatchIntent, failureOf, formAction } from "../../server/lib/operation.ts";
import type { AppContext } from "../context.ts";
import { acceptedImageTypes, maxImageBytes } from "../../features/attachments/constants.ts";
import { assertUploadAllowance, storeImage } from "../../features/attachments/service.ts";
import { checkChatSend, markChatRead } from "../../features/chats/service.ts";
import {
  blockOperation,
  listChatMessagesOperation,
  sendChatMessageOperation,
  unblockOperation,
  type ChatMessageAnswer,
} from "../../features/chats/operations.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "centre:chat.title");

/**
 * `/messages/chat/{username}`: the conversation, newest 30 (`?before=` for older ones, also loaded
 * on scroll), the send form (text and an image, a plain multipart post without JavaScript), block
 * and unblock. Opening it reads what the other person sent (their read receipts).
 */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  const before = idFromText(pageUrl(request.url).searchParams.get("before") ?? "") ?? undefined;
  const result = await listChatMessagesOperation.run(pageServices(app), viewer, {
    params: { username: params.username },
    query: { before },
    body: undefined,
  });
  if (before === undefined) await markChatRead({ db: app.db }, viewer, params.username);
  const answer = listChatMessagesOperation.present(result, { viewer, locale: app.locale });
  return withFormToken(app, { ...answer, older: before !== undefined });
}

const imageField = "image";

/**
 * The image, when one was chosen, stored (checked, re-encoded) before the message's transaction,
 * but only once the message would be accepted (blocks, the chat's pace) and within the account's
 * image allowance: a refused message stores nothing.
 */
async function sendBody(form: FormData, app: AppContext, username: string) {
  const file = form.get(imageField);
  let imageFileId: string | undefined;
  if (file instanceof File && file.size > 0) {
    if (file.size > maxImageBytes) throw new AppError("image_too_large");
    await checkChatSend({ db: app.db }, app.viewer!, username);
    await assertUploadAllowance(app.db, app.viewer!.id);
    const bytes = Buffer.from(await file.arrayBuffer());
    const stored = await storeImage({ db: app.db, files: app.files }, { ownerId: app.viewer!.id, bytes, purpose: "chat" });
    imageFileId = stored.fileId;
  }
  const text = form.get("text");
  return { text: typeof text === "string" ? text : null, image_file_id: imageFileId ?? null };
}

const sendForm = (body: Awaited<ReturnType<typeof sendBody>>) =>
  formAction(sendChatMessageOperation, {
    body: () => body,
    done: (message) => data({ sent: message.id }),
  });

const blockForm = formAction(blockOperation, { body: () => ({}), done: () => data({ blocked: true }) });
const unblockForm = formAction(unblockOperation, { body: () => ({}), done: () => data({ blocked: false }) });

export async function action({ context, request, params }: Route.ActionArgs) {
  const app = getAppContext(context);
  requireViewer(app);
  const form = await readUploadForm(request, maxImageBytes);
  assertFormCsrf(app, form);
  const post = { app, request, form, params: { username: params.username } };
  if (form.get("intent") === "send") {
    let body: Awaited<ReturnType<typeof sendBody>>;
    try {
      body = await sendBody(form, app, params.username);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const failure = failureOf(error, app.locale);
      return data(failure, { status: failure.status });
    }
    return sendForm(body)(post);
  }
  return dispatchIntent(post, { block: blockForm, unblock: unblockForm });
}

type ActionAnswer = { sent?: number; blocked?: boolean; formError?: string; fieldErrors?: Record<string, string> } | undefined;

export default function ChatThread({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(["centre", "errors"]);
  const locale = i18n.language as Locale;
  const store = useSessionStore();
  const navigation = useNavigation();
  const { peer, csrfToken, you_blocked: youBlocked } = loaderData;
  // The peer blocking (or unblocking) the viewer arrives live: the open thread says so at once.
  const [liveBlockedYou, setLiveBlockedYou] = useState<boolean | null>(null);
  const blockedYou = liveBlockedYou ?? loaderData.blocked_you;
  const [messages, setMessages] = useState<ChatMessageAnswer[]>(() => [...loaderData.results].reverse());
  // The chosen image's name in the page's language (the browser's own "No file chosen" follows its UI language).
  const [imageName, setImageName] = useState("");
  const [nextBefore, setNextBefore] = useState<number | null>(loaderData.next_before);
  const listRef = useRef<HTMLOListElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const loadingOlder = useRef(false);
  const stickToBottom = useRef(true);
  const here = localizePath(`/messages/chat/${peer.username}`, locale);
  const answer = actionData as ActionAnswer;

  // A new loader answer (after sending, blocking, a navigation) is the truth; live messages add to it.
  useEffect(() => {
    setMessages([...loaderData.results].reverse());
    setNextBefore(loaderData.next_before);
    setLiveBlockedYou(null);
    stickToBottom.current = true;
  }, [loaderData]);

  useEffect(() => {
    if (answer?.sent) formRef.current?.reset();
  }, [answer]);

  useLayoutEffect(() => {
    const list = listRef.current;
    if (list && stickToBottom.current) list.scrollTop = list.scrollHeight;
  }, [messages]);

  const onLive = useCallback(
    (message: StreamMessage) => {
      if (message.sse_type === "chat" && message.peer === peer.username) {
        const incoming = message.message as ChatMessageAnswer;
        setMessages((current) => (current.some((known) => known.id === incoming.id) ? current : [...current, incoming]));
        stickToBottom.current = true;
        if (!incoming.mine && document.visibilityState === "visible")
          void postJson(`/api/chats/${peer.username}/read/`).catch(() => undefined);
      } else if (message.sse_type === "chat_blocked" && message.peer === peer.username) {
        setLiveBlockedYou(message.blocked === true);
      } else if (message.sse_type === "chat_read" && message.peer === peer.username) {
        const upTo = Number(message.read_up_to);
        setMessages((current) =>
          current.map((known) => (known.mine && known.id <= upTo && !known.read ? { ...known, read: true } : known)),
        );
      }
    },
    [peer.username],
  );
  useEffect(() => store.onLive(onLive), [store, onLive]);

  // Messages that arrived while the tab was hidden are read once it is shown again.
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === "visible") void postJson(`/api/chats/${peer.username}/read/`).catch(() => undefined);
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [peer.username]);

  /** Older messages when the reader scrolls to the top (the "Load older" link without JavaScript). */
  const loadOlder = useCallback(async () => {
    if (nextBefore === null || loadingOlder.current) return;
    loadingOlder.current = true;
    try {
      const response = await fetch(`/api/chats/${encodeURIComponent(peer.username)}/messages/?before=${nextBefore}`, {
        credentials: "same-origin",
        headers: { accept: "application/json" },
      });
      if (!response.ok) return;
      const page = (await response.json()) as { results: ChatMessageAnswer[]; next_before: number | null };
      const list = listRef.current;
      const fromBottom = list ? list.scrollHeight - list.scrollTop : 0;
      stickToBottom.current = false;
      setMessages((current) => [...[...page.results].reverse(), ...current]);
      setNextBefore(page.next_before);
      requestAnimationFrame(() => {
        if (list) list.scrollTop = list.scrollHeight - fromBottom;
      });
    } finally {
      loadingOlder.current = false;
    }
  }, [nextBefore, peer.username]);

  const submitting = navigation.state === "submitting" && navigation.formData?.get("intent") === "send";
  const canSend = !youBlocked && !blockedYou;
  return (
    <div className="message-centre">
      <MessageCentreNav />
      <section className="panel message-list chat-thread" aria-labelledby="chat-thread-title">
        <div className="chat-head">
          <img className="site-avatar-image" src={peer.avatar} alt="" width={32} height={32} />
          <h2 id="chat-thread-title" className="page-title">
            {t("centre:chat.with", { name: peer.nickname })}
          </h2>
          <Link to={localizePath(`/profile/${peer.username}`, locale)}>{t("centre:chat.profile_link")}</Link>
          <Form method="post" action={here} className="chat-block" encType="multipart/form-data">
            <input type="hidden" name="csrftoken" value={csrfToken} />
            <button type="submit" name="intent" value={youBlocked ? "unblock" : "block"} className="button" data-testid="block-button">
              {youBlocked ? t("centre:chat.unblock") : t("centre:chat.block")}
            </button>
          </Form>
          <Link to={localizePath("/messages/chat", locale)}>{t("centre:chat.back")}</Link>
        </div>
        {nextBefore !== null ? (
          <Link className="chat-older" to={`${here}?before=${nextBefore}`} onClick={(event) => (event.preventDefault(), void loadOlder())}>
            {t("centre:chat.older")}
          </Link>
        ) : null}
        <ol
          ref={listRef}
          className="chat-messages"
          data-testid="chat-messages"
          onScroll={(event) => {
            if (event.currentTarget.scrollTop < 40) void loadOlder();
          }}
        >
          {messages.length === 0 ? <li className="muted chat-empty">{t("centre:chat.no_messages")}</li> : null}
          {messages.map((message) => (
            <li key={message.id} className={message.mine ? "chat-message mine" : "chat-message"} data-testid="chat-message">
              <div className="chat-bubble">
                {message.text ? <p>{message.text}</p> : null}
                {message.image_url ? (
                  <a href={message.image_url} target="_blank" rel="noreferrer">
                    <img
                      src={message.image_url}
                      alt={t("centre:chat.image_alt", { name: message.mine ? t("centre:chat.you") : peer.nickname })}
                      className="chat-image"
                      loading="lazy"
                    />
                  </a>
                ) : null}
              </div>
              <span className="muted chat-meta">
                <time dateTime={message.created_at}>
                  {formatDate(message.created_at, locale, { timeStyle: "short", dateStyle: "short" })}
                </time>
                {message.mine ? (
                  <span className="chat-receipt" data-testid="chat-receipt">
                    {" · "}
                    {message.read ? t("centre:chat.read") : t("centre:chat.unread")}
                  </span>
                ) : null}
              </span>
            </li>
          ))}
        </ol>
        {youBlocked ? <p className="form-error">{t("centre:chat.you_blocked")}</p> : null}
        {blockedYou ? (
          <p className="form-error" role="status" data-testid="blocked-you">
            {t("centre:chat.blocked_you")}
          </p>
        ) : null}
        {canSend ? (
          <Form ref={formRef} method="post" action={here} encType="multipart/form-data" className="chat-compose">
            <input type="hidden" name="csrftoken" value={csrfToken} />
            <label htmlFor="chat-text" className="visually-hidden">
              {t("centre:chat.message_label")}
            </label>
            <textarea
              id="chat-text"
              name="text"
              rows={2}
              maxLength={2000}
              onKeyDown={(event) => {
                if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
                  event.preventDefault();
                  event.currentTarget.form?.requestSubmit(event.currentTarget.form.querySelector<HTMLButtonElement>("button[value=send]"));
                }
              }}
            />
            <label className="chat-image-input file-picker">
              <input
                className="file-picker-input"
                type="file"
                name={imageField}
                accept={acceptedImageTypes}
                onChange={(event) => setImageName(event.currentTarget.files?.[0]?.name ?? "")}
              />
              <span className="button file-picker-button">{t("centre:chat.choose_image")}</span>
              <span className="muted file-picker-name" data-testid="chat-image-name">
                {imageName || t("centre:chat.image_label")}
              </span>
            </label>
            <button type="submit" name="intent" value="send" className="button button-primary" disabled={submitting}>
              {submitting ? t("centre:chat.sending") : t("centre:chat.send")}
            </button>
          </Form>
        ) : null}
        <div role="status" aria-live="polite">
          {answer?.formError ? <p className="form-error">{answer.formError}</p> : null}
          {answer?.fieldErrors ? <p className="form-error">{Object.values(answer.fieldErrors)[0]}</p> : null}
        </div>
      </section>
    </div>
  );
}
