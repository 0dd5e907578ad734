import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/trade-progress-list";
import { getAppContext, requireViewer } from "../lib/context.server.ts";
import { formatDate, localizePath, pageUrl, stripLocale, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { presentProgress } from "../../features/trade/operations.ts";
import { listProgress } from "../../features/trade/queries.ts";
import { Amount } from "../components/coins.tsx";
import "../lib/trade-catalog.ts";
import walletStyles from "../styles/wallet.css?url";

export const meta: Route.MetaFunction = ({ location }) =>
  pageMeta(location, stripLocale(location.pathname).endsWith("/me/accept") ? "trade:progress.accepted_title" : "trade:progress.title");
export const links = () => [{ rel: "stylesheet", href: walletStyles }];

/**
 * `/trade/missions/me/accept` (the tasks I took, with their state) and `/trade/missions/progress`
 * (my progress records: as a worker, and the work submitted on my tasks).
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  const accepted = stripLocale(pageUrl(request.url).pathname).startsWith("/trade/missions/me/accept");
  const worker = (await listProgress(app.db, viewer, "worker")).map((row) => presentProgress(row, app.locale));
  const poster = accepted ? [] : (await listProgress(app.db, viewer, "poster")).map((row) => presentProgress(row, app.locale));
  return { accepted, worker, poster };
}

type Record = ReturnType<typeof presentProgress>;

function Records({ records, locale }: { records: Record[]; locale: Locale }) {
  const { t } = useTranslation("trade");
  if (records.length === 0) return <p className="muted">{t("progress.empty")}</p>;
  return (
    <ul className="movement-list">
      {records.map((record) => (
        <li key={record.id} data-testid="progress-record">
          <Link to={record.url}>{record.title}</Link> <Amount value={record.reward} currency="sinecoin" /> ·{" "}
          <span>{t(`state.${record.status}`)}</span>{" "}
          <span className="muted">
            · {record.worker.name} · {formatDate(record.created_at, locale)}
          </span>
        </li>
      ))}
    </ul>
  );
}

export default function TradeProgressList({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("trade");
  const locale = i18n.language as Locale;
  const { accepted, worker, poster } = loaderData;
  return (
    <section className="panel" aria-labelledby="progress-list-title">
      <p>
        <Link to={localizePath("/trade", locale)}>{t("title")}</Link>
      </p>
      <h1 id="progress-list-title" className="page-title">
        {accepted ? t("progress.accepted_title") : t("progress.title")}
      </h1>
      {accepted ? null : <h2>{t("progress.as_worker")}</h2>}
      <Records records={worker} locale={locale} />
      {accepted ? null : (
        <>
          <h2>{t("progress.as_poster")}</h2>
          <Records records={poster} locale={locale} />
        </>
      )}
    </section>
  );
}
