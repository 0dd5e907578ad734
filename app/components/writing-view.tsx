import { Form, Link, useFetcher } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import type { PresentedWriting } from "../../features/writings/presenter.ts";
import { editorPath, writingPath } from "../../features/writings/paths.ts";
import { ReadingTime, RenderedContent, TableOfContents } from "./rendered-content.tsx";
import { defaultAvatar } from "../../features/accounts/presenter.ts";
import { Breadcrumb } from "./breadcrumb.tsx";
import { EntryList } from "./entry-list.tsx";
import type { EntrySummary } from "../../features/encyclopedia/schema.ts";
import { ActionBar } from "./action-bar.tsx";
import { HiddenNotice } from "./hidden-notice.tsx";
import type { InteractionSummary } from "../../features/reactions/viewer-state.ts";
import { CommentSection, type CommentActionData, type CommentFormFailure, type CommentsPageData } from "./comment-section.tsx";
import { FramedAvatar, WornBadge } from "./worn-items.tsx";
import { ViewBeacon } from "./view-beacon.tsx";
import { AdSlot } from "./ad-slot.tsx";

export interface ReadingPageData {
  writing: PresentedWriting;
  following: boolean;
  signedIn: boolean;
  isAuthor: boolean;
  csrfToken: string | null;
  circleName: string;
  /** The related entries the viewer may read, by name. */
  relatedEntries: EntrySummary[];
  comments: CommentsPageData;
  interactions: InteractionSummary;
  /** Why the page is hidden from everyone else (its author and moderators only see it). */
  moderation: "pending" | "hidden" | null;
  /** Pay-to-view: the price and whether the viewer reads the paid part (null: a free writing). */
  paywall: {
    price: number;
    entitled: boolean;
    unlocked: boolean;
    refundable: boolean;
    refundRequest: "open" | "approved" | "rejected" | null;
    openRefundRequests: { id: number; reader: string; reason: string; price: number }[];
  } | null;
  idempotencyKey: string | null;
  /** Open red packets on the writing, and what the viewer got from each (null: not opened). */
  redPackets: { id: number; shares: number; remainingShares: number; own: boolean; claimed: number | null }[];
  /** The shop badge and avatar frame the author wears (item codes). */
  authorAdornments: { badge: string | null; frame: string | null };
}

/** Red packets: "Open the red packet" for readers (a plain form), what each got, and the author's form to send one. */
function RedPackets({ page, path, next }: { page: ReadingPageData; path: string; next: string }) {
  const { t, i18n } = useTranslation("writings");
  const locale = i18n.language as Locale;
  const token = page.csrfToken;
  if (page.redPackets.length === 0 && !page.isAuthor) return null;
  return (
    <section className="panel red-packets" aria-label={t("red_packet.title")} data-testid="red-packets">
      {page.redPackets.map((packet) => (
        <div key={packet.id} className="red-packet" data-id={packet.id}>
          <span className="red-packet-label">{t("red_packet.left", { left: packet.remainingShares, shares: packet.shares })}</span>
          {packet.claimed !== null ? (
            <span data-testid="red-packet-got">{t("red_packet.got", { amount: packet.claimed })}</span>
          ) : packet.own ? null : token ? (
            <Form method="post" action={path}>
              <input type="hidden" name="csrftoken" value={token} />
              <input type="hidden" name="idempotency_key" value={page.idempotencyKey ?? ""} />
              <input type="hidden" name="red_packet" value={packet.id} />
              <button type="submit" name="intent" value="claim_red_packet" className="button button-primary" data-testid="open-red-packet">
                {t("red_packet.open")}
              </button>
            </Form>
          ) : (
            <Link
              className="button button-primary"
              to={`${localizePath("/login", locale)}?next=${encodeURIComponent(next)}`}
              rel="nofollow"
            >
              {t("red_packet.open")}
            </Link>
          )}
        </div>
      ))}
      {page.isAuthor && token ? (
        <details className="red-packet-fund">
          <summary className="button action-button">{t("red_packet.send")}</summary>
          <Form method="post" action={path} className="wallet-form">
            <input type="hidden" name="csrftoken" value={token} />
            <input type="hidden" name="idempotency_key" value={page.idempotencyKey ?? ""} />
            <label>
              {t("red_packet.total")}
              <input type="number" name="total" min={1} step={1} required defaultValue={10} />
            </label>
            <label>
              {t("red_packet.shares")}
              <input type="number" name="shares" min={1} max={1000} step={1} required defaultValue={5} />
            </label>
            <label>
              {t("red_packet.split")}
              <select name="split" defaultValue="random">
                <option value="random">{t("red_packet.random")}</option>
                <option value="equal">{t("red_packet.equal")}</option>
              </select>
            </label>
            <label>
              {t("red_packet.hours")}
              <input type="number" name="expires_in_hours" min={1} max={168} step={1} required defaultValue={24} />
            </label>
            <button type="submit" name="intent" value="fund_red_packet" className="button button-primary">
              {t("red_packet.send")}
            </button>
          </Form>
        </details>
      ) : null}
    </section>
  );
}

/** The end of the free part: a fade and "Unlock for N sinecoin" (a plain form; visitors sign in first), or the refund while it is open. */
function Paywall({ page, path, next }: { page: ReadingPageData; path: string; next: string }) {
  const { t, i18n } = useTranslation("writings");
  const locale = i18n.language as Locale;
  const paywall = page.paywall!;
  if (paywall.entitled) {
    if (!page.csrfToken) return null;
    if (!paywall.unlocked) return <RefundRequests page={page} path={path} />;
    if (paywall.refundRequest)
      return (
        <p className="paywall-refund" data-testid="refund-status">
          {t(`paywall.refund_${paywall.refundRequest}`)}
        </p>
      );
    if (!paywall.refundable) return null;
    return (
      <Form method="post" action={path} className="paywall-refund">
        <input type="hidden" name="csrftoken" value={page.csrfToken} />
        <input type="hidden" name="idempotency_key" value={page.idempotencyKey ?? ""} />
        <label>
          {t("paywall.refund_reason")}
          <textarea name="reason" required maxLength={500} rows={2} />
        </label>
        <button type="submit" name="intent" value="refund_request" className="button action-button" data-testid="refund">
          {t("paywall.refund", { price: paywall.price })}
        </button>
      </Form>
    );
  }
  const unlockLabel = t("paywall.unlock", { price: paywall.price });
  return (
    <div className="paywall" data-testid="paywall">
      <p className="paywall-title">{t("paywall.title")}</p>
      {page.csrfToken ? (
        <Form method="post" action={path}>
          <input type="hidden" name="csrftoken" value={page.csrfToken} />
          <input type="hidden" name="idempotency_key" value={page.idempotencyKey ?? ""} />
          <button type="submit" name="intent" value="unlock" className="button button-primary" data-testid="unlock">
            {unlockLabel}
          </button>
        </Form>
      ) : (
        <Link className="button button-primary" to={`${localizePath("/login", locale)}?next=${encodeURIComponent(next)}`} rel="nofollow">
          {unlockLabel}
        </Link>
      )}
    </div>
  );
}

/** The author's (or a moderator's) open refund requests on this writing, each with approve and reject (plain forms). */
function RefundRequests({ page, path }: { page: ReadingPageData; path: string }) {
  const { t } = useTranslation("writings");
  const requests = page.paywall!.openRefundRequests;
  if (requests.length === 0 || !page.csrfToken) return null;
  return (
    <section className="paywall-refund-requests" data-testid="refund-requests">
      <h2>{t("paywall.requests_title")}</h2>
      <ul>
        {requests.map((request) => (
          <li key={request.id}>
            <p>{t("paywall.request_line", { reader: request.reader, price: request.price, reason: request.reason })}</p>
            <Form method="post" action={path}>
              <input type="hidden" name="csrftoken" value={page.csrfToken ?? ""} />
              <input type="hidden" name="idempotency_key" value={`${page.idempotencyKey ?? ""}:${request.id}`} />
              <input type="hidden" name="refund_request" value={request.id} />
              <button type="submit" name="intent" value="approve_refund" className="button action-button">
                {t("paywall.approve")}
              </button>
              <button type="submit" name="intent" value="reject_refund" className="button action-button">
                {t("paywall.reject")}
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </section>
  );
}

const dateTime: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };

/** The Follow toggle of the author card: a post to the profile's action (a plain form without JavaScript). */
function FollowAuthor({ username, following, csrfToken }: { username: string; following: boolean; csrfToken: string }) {
  const { t, i18n } = useTranslation("writings");
  const fetcher = useFetcher();
  const pending = fetcher.formData?.get("intent");
  const now = pending ? pending === "follow" : following;
  return (
    <fetcher.Form method="post" action={localizePath(`/profile/${username}`, i18n.language as Locale)}>
      <input type="hidden" name="csrftoken" value={csrfToken} />
      <input type="hidden" name="intent" value={now ? "unfollow" : "follow"} />
      <button type="submit" className={now ? "button" : "button button-primary"} aria-pressed={now} data-testid="follow-author">
        {now ? t("read.unfollow") : t("read.follow")}
      </button>
    </fetcher.Form>
  );
}

/**
 * A writing's reading page: complete without JavaScript (content, table of contents, language
 * switcher, series navigation, delete with its confirmation as plain forms). "Disable copying" and
 * "disable context menu" are deterrents only: anyone can still read the page's source.
 */
export function WritingView({
  page,
  confirmDelete,
  commentFailure,
  commentAnswer,
}: {
  page: ReadingPageData;
  confirmDelete: boolean;
  commentFailure?: CommentFormFailure;
  commentAnswer?: CommentActionData;
}) {
  const { t, i18n } = useTranslation("writings");
  const locale = i18n.language as Locale;
  const { writing } = page;
  const path = (to: string) => localizePath(to, locale);
  const link = (id: number, language?: Locale) => path(writingPath({ id, circleId: writing.circle_id, type: writing.type }, language));
  const blockCopy = writing.disable_copy ? (event: React.SyntheticEvent) => event.preventDefault() : undefined;
  const blockMenu = writing.disable_context_menu ? (event: React.SyntheticEvent) => event.preventDefault() : undefined;
  const kind = writing.kind === "custom" ? writing.kind_name : t(`kinds.${writing.kind}`);
  return (
    <article className="writing-page" lang={writing.language} data-testid="writing">
      <Breadcrumb
        label={t("read.breadcrumb")}
        trail={[{ to: path(`/circles/${writing.circle_id}`), label: page.circleName || t("read.circle") }]}
        current={t(`types.${writing.type}`)}
      />
      <HiddenNotice state={page.moderation} />
      <header className="panel writing-header">
        {writing.cover_url ? <img className="writing-cover" src={writing.cover_url} alt="" /> : null}
        <h1 className="page-title writing-title">
          {writing.series ? <span className="writing-part">{t("read.part", { number: writing.series.part_number })} </span> : null}
          {writing.title}
        </h1>
        <p className="muted writing-facts">
          <span>{kind}</span> · <span data-testid="text-length">{t("read.text_length", { count: writing.text_length })}</span> ·{" "}
          <ReadingTime minutes={writing.reading_minutes} /> · <span data-testid="views">{t("read.views", { count: writing.views })}</span>
        </p>
        <p className="muted writing-times">
          <time dateTime={writing.published_at}>{t("read.published", { date: formatDate(writing.published_at, locale, dateTime) })}</time>
          {writing.edited_at ? (
            <>
              {" · "}
              <time dateTime={writing.edited_at} data-testid="edited-at">
                {t("read.edited", { date: formatDate(writing.edited_at, locale, dateTime) })}
              </time>
            </>
          ) : null}
        </p>
        {writing.categories.length > 0 ? (
          <ul className="writing-categories" aria-label={t("read.categories")}>
            {writing.categories.map((category) => (
              <li key={category.id} className="role-badge">
                {category.name}
              </li>
            ))}
          </ul>
        ) : null}
        {writing.is_repost && writing.source_url ? (
          <p className="muted">
            {t("read.repost_from")}{" "}
            <a href={writing.source_url} rel="nofollow ugc noopener">
              {writing.source_url}
            </a>
          </p>
        ) : null}
        {writing.versions.length > 1 ? (
          <nav className="writing-languages" aria-label={t("read.languages")}>
            {writing.versions.map((version) =>
              version.id === writing.id ? (
                <span key={version.id} aria-current="page" className="role-badge">
                  {t(`languages.${version.language}`)}
                </span>
              ) : (
                <Link
                  key={version.id}
                  to={link(writing.id, version.language)}
                  hrefLang={version.language}
                  data-testid={`language-${version.language}`}
                >
                  {t(`languages.${version.language}`)}
                </Link>
              ),
            )}
          </nav>
        ) : null}
        {writing.author ? (
          <div className="writing-author" data-testid="author-card">
            <FramedAvatar frame={page.authorAdornments.frame}>
              <img className="writing-author-avatar" src={writing.author.avatar ?? defaultAvatar} alt="" width={40} height={40} />
            </FramedAvatar>
            <Link to={path(`/profile/${writing.author.username}`)}>{writing.author.nickname}</Link>
            <WornBadge item={page.authorAdornments.badge} />
            <span className="muted">@{writing.author.username}</span>
            {page.csrfToken && !page.isAuthor ? (
              <FollowAuthor username={writing.author.username} following={page.following} csrfToken={page.csrfToken} />
            ) : null}
            {!page.signedIn ? (
              <Link className="button" to={`${path("/login")}?next=${encodeURIComponent(path(`/profile/${writing.author.username}`))}`}>
                {t("read.follow")}
              </Link>
            ) : null}
          </div>
        ) : null}
        <div className="writing-actions">
          {writing.can.edit ? (
            <Link
              className="button"
              to={`${path(editorPath(writing.circle_id, writing.type))}?edit=${writing.id}`}
              data-testid="edit-writing"
            >
              {t("read.edit")}
            </Link>
          ) : null}
          {writing.can.extend && writing.type !== "post" && writing.versions.length < 2 ? (
            <Link
              className="button"
              to={`${path(editorPath(writing.circle_id, writing.type))}?translate=${writing.translation_of ?? writing.id}&language=${writing.language === "en" ? "zh-CN" : "en"}`}
              data-testid="add-language"
            >
              {t("read.add_language", { language: t(`languages.${writing.language === "en" ? "zh-CN" : "en"}`) })}
            </Link>
          ) : null}
          {writing.can.extend && writing.series ? (
            <Link className="button" to={`${path(editorPath(writing.circle_id, writing.type))}?series=${writing.series.id}`}>
              {t("read.add_part")}
            </Link>
          ) : null}
          {writing.can.delete && page.csrfToken ? (
            <Form method="post" className="inline-form">
              <input type="hidden" name="csrftoken" value={page.csrfToken} />
              <input type="hidden" name="intent" value="delete" />
              {confirmDelete ? <input type="hidden" name="confirmed" value="1" /> : null}
              {confirmDelete ? (
                <p className="form-error" role="alert">
                  {t("read.delete_confirm")}
                </p>
              ) : null}
              <button type="submit" className="button button-danger" data-testid={confirmDelete ? "confirm-delete" : "delete-writing"}>
                {confirmDelete ? t("read.delete_confirm_button") : t("read.delete")}
              </button>
            </Form>
          ) : null}
        </div>
      </header>
      <div className="writing-body">
        <TableOfContents items={writing.toc} className="writing-toc" />
        <div
          className={writing.disable_copy ? "panel writing-content no-copy" : "panel writing-content"}
          onCopy={blockCopy}
          onCut={blockCopy}
          onContextMenu={blockMenu}
          data-disable-copy={writing.disable_copy || undefined}
          data-disable-context-menu={writing.disable_context_menu || undefined}
        >
          <RenderedContent html={writing.html} lang={writing.language} />
          {page.paywall ? (
            <Paywall
              page={page}
              path={link(writing.id)}
              next={writingPath({ id: writing.id, circleId: writing.circle_id, type: writing.type })}
            />
          ) : null}
        </div>
      </div>
      <AdSlot placement="article" circleId={writing.circle_id} subject={{ type: "writing", id: writing.id }} />
      <RedPackets
        page={page}
        path={link(writing.id)}
        next={writingPath({ id: writing.id, circleId: writing.circle_id, type: writing.type })}
      />
      <ActionBar
        subjectType="writing"
        subjectId={writing.id}
        summary={page.interactions}
        csrfToken={page.csrfToken}
        title={writing.title}
      />
      {page.relatedEntries.length > 0 ? (
        <section className="panel" aria-labelledby="related-title">
          <h2 id="related-title">{t("read.related")}</h2>
          <EntryList entries={page.relatedEntries} testId="related-entries" />
        </section>
      ) : null}
      {writing.series ? (
        <nav className="panel writing-series" aria-label={t("read.series")} data-testid="series-nav">
          {writing.series.previous ? (
            <Link to={link(writing.series.previous)} rel="prev">
              {t("read.previous")}
            </Link>
          ) : (
            <span />
          )}
          <ol>
            {writing.series.parts.map((part) => (
              <li key={part.id}>
                {part.id === (writing.translation_of ?? writing.id) ? (
                  <strong>{part.title}</strong>
                ) : (
                  <Link to={link(part.id)}>{part.title}</Link>
                )}
              </li>
            ))}
          </ol>
          {writing.series.next ? (
            <Link to={link(writing.series.next)} rel="next">
              {t("read.next")}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
      <CommentSection
        comments={page.comments}
        csrfToken={page.csrfToken}
        signedIn={page.signedIn}
        failure={commentFailure}
        actionData={commentAnswer}
      />
      {/* Counts the view once a day, also for cached pages and without JavaScript. */}
      <ViewBeacon type="writing" id={writing.id} />
    </article>
  );
}
