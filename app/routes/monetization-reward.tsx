import { Link, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/monetization-reward";
import { getAppContext, here, requireViewer } from "../lib/context.server.ts";
import { can } from "../../features/accounts/policy.ts";
import { listIncome } from "../../features/monetization/income.ts";
import { presentIncomeLine } from "../../features/monetization/operations.ts";
import { formatDate, localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { Amount } from "../components/coins.tsx";
import "../lib/monetization-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "monetization:reward.title");
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * `/monetization/reward` (participants): every income line, newest first, 20 a page — who paid,
 * the source, the piece with its link, the amount, and whether it is pending settlement (with the
 * day it becomes available) or available. Others go to `/monetization`.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  if (!can(app.viewer, "enter_monetization_home")) throw redirect(here(app, "/monetization"));
  const cursor = pageUrl(request.url).searchParams.get("cursor");
  const page = await listIncome(app.db, viewer.id, cursor && /^\d{1,15}$/.test(cursor) ? { cursor } : {});
  return { lines: page.items.map(presentIncomeLine), nextCursor: page.nextCursor };
}

export default function MonetizationReward({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("monetization");
  const locale = i18n.language as Locale;
  const { lines, nextCursor } = loaderData;
  return (
    <section className="panel" aria-labelledby="monetization-reward-title">
      <h1 id="monetization-reward-title" className="page-title">
        {t("reward.title")}
      </h1>
      <p className="muted">{t("reward.intro")}</p>
      {lines.length === 0 ? (
        <p className="muted">{t("reward.empty")}</p>
      ) : (
        <table className="data-table" data-testid="monetization-income">
          <thead>
            <tr>
              <th scope="col">{t("reward.when")}</th>
              <th scope="col">{t("reward.source")}</th>
              <th scope="col">{t("reward.from")}</th>
              <th scope="col">{t("reward.piece")}</th>
              <th scope="col">{t("reward.amount")}</th>
              <th scope="col">{t("reward.status")}</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line) => (
              <tr key={line.id}>
                <td>{formatDate(line.created_at, locale, { dateStyle: "medium", timeStyle: "short" })}</td>
                <td>
                  {t(`home.source.${line.source}`)}
                  {line.amount < 0 ? ` · ${t("reward.refund")}` : ""}
                </td>
                <td>{line.counterparty ?? "—"}</td>
                <td>{line.url ? <Link to={localizePath(line.url, locale)}>{line.title || line.url}</Link> : (line.title ?? "—")}</td>
                <td>
                  <Amount value={line.amount} currency="sinecoin" />
                </td>
                <td>
                  {line.status === "available"
                    ? t("reward.available")
                    : t("reward.pending", { date: formatDate(line.available_at, locale) })}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {nextCursor ? (
        <p>
          <Link to={`${localizePath("/monetization/reward", locale)}?cursor=${nextCursor}`}>{t("reward.more")}</Link>
        </p>
      ) : null}
      <p>
        <Link to={localizePath("/monetization/home", locale)}>{t("reward.back")}</Link>
      </p>
    </section>
  );
}
