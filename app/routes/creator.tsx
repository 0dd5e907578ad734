import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/creator";
import { getAppContext, requireViewer } from "../lib/context.server.ts";
import { withFormToken } from "../lib/circle-pages.server.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { CreatorLayout } from "../components/creator-layout.tsx";
import { creatorStats } from "../../features/creator/stats.ts";
import { presentCreatorStats } from "../../features/creator/operations.ts";
import "../lib/creator-catalog.ts";
import creatorStyles from "../styles/creator.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "creator:home.title");
export const links = () => [{ rel: "stylesheet", href: creatorStyles }];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** `/creator`: the creator centre's hub (signed in): content counts and reader response over 7 and 30 days and in all. */
export async function loader({ context }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  return withFormToken(app, { stats: presentCreatorStats(await creatorStats(app.db, viewer.id, app.now())) });
}

const contentKeys = ["articles", "serials", "posts", "books", "chapters"] as const;
const figureKeys = ["views", "likes", "favorites", "comments", "followers"] as const;

export default function CreatorHome({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("creator");
  const locale = i18n.language as Locale;
  const { stats } = loaderData;
  const number = (value: number) => value.toLocaleString(locale);
  return (
    <CreatorLayout>
      <section className="panel" aria-labelledby="creator-title">
        <h1 id="creator-title" className="page-title">
          {t("home.title")}
        </h1>
        <p className="muted">{t("home.intro")}</p>
        <h2 className="creator-section-title">{t("home.content_title")}</h2>
        <dl className="creator-counts" data-testid="creator-content-counts">
          {contentKeys.map((key) => (
            <div key={key} className="creator-count" data-key={key}>
              <dt>{t(`home.${key}`)}</dt>
              <dd>{number(stats.content[key])}</dd>
            </div>
          ))}
        </dl>
        <p className="circle-actions">
          <Link className="button button-primary" to={localizePath("/creator/manage/content", locale)}>
            {t("home.manage_content")}
          </Link>
          <Link className="button" to={localizePath("/creator/manage/comment", locale)}>
            {t("home.manage_comments")}
          </Link>
        </p>
      </section>
      <section className="panel" aria-labelledby="creator-figures">
        <h2 id="creator-figures" className="page-title">
          {t("home.figures_title")}
        </h2>
        <div className="table-scroll">
          <table className="data-table" data-testid="creator-figures">
            <thead>
              <tr>
                <th scope="col">{t("home.figure")}</th>
                <th scope="col">{t("home.last_7_days")}</th>
                <th scope="col">{t("home.last_30_days")}</th>
                <th scope="col">{t("home.total")}</th>
              </tr>
            </thead>
            <tbody>
              {figureKeys.map((key) => (
                <tr key={key} data-key={key}>
                  <th scope="row">{t(`home.${key}`)}</th>
                  <td>{number(stats.last_7_days[key])}</td>
                  <td>{number(stats.last_30_days[key])}</td>
                  <td>{number(stats.total[key])}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="muted">{t("home.figures_note")}</p>
      </section>
    </CreatorLayout>
  );
}
