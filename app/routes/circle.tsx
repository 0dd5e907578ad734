import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../components/empty-state.tsx";
import type { Route } from "./+types/circle";
import { getAppContext, notFound } from "../lib/context.server.ts";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { getCirclePage } from "../../features/circles/service.ts";
import { CircleCards } from "../components/circle-cards.tsx";
import { CircleLogo } from "../components/circle-logo.tsx";

export const meta: Route.MetaFunction = ({ location, loaderData }) =>
  pageMeta(location, loaderData ? () => loaderData.circle.name : "common:circles.not_found", loaderData?.circle.description || undefined);

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const id = Number(params.circleId);
  if (!/^\d{1,9}$/.test(params.circleId)) notFound(request);
  const page = await getCirclePage(app.db, id, app.locale);
  if (!page) notFound(request);
  return page;
}

export default function Circle({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("common");
  const locale = i18n.language as Locale;
  const { circle, ancestors, children } = loaderData;
  const link = (id: number) => localizePath(`/circles/${id}`, locale);
  return (
    <>
      <nav className="breadcrumb" aria-label={t("circles.breadcrumb")}>
        <ol>
          <li>
            <Link to={localizePath("/circles", locale)}>{t("circles.title")}</Link>
          </li>
          {ancestors.map((ancestor) => (
            <li key={ancestor.id}>
              <Link to={link(ancestor.id)}>{ancestor.name}</Link>
            </li>
          ))}
          <li aria-current="page">{circle.name}</li>
        </ol>
      </nav>
      <section className="panel circle-header" aria-labelledby="circle-title">
        <div className="circle-tree-item">
          <CircleLogo circle={circle} size={72} locale={locale} alt={t("circles.logo_alt", { name: circle.name })} />
          <div>
            <h1 id="circle-title" className="page-title">
              {circle.name}
            </h1>
            <p>{circle.description}</p>
            <p className="muted">{t("circles.created", { date: formatDate(circle.createdAt, locale) })}</p>
          </div>
        </div>
      </section>
      <section className="panel" aria-labelledby="subcircles-title">
        <h2 id="subcircles-title" className="page-title">
          {t("circles.subcircles")}
        </h2>
        {children.length === 0 ? (
          <EmptyState description={t("circles.no_subcircles")} />
        ) : (
          <CircleCards circles={children} />
        )}
      </section>
    </>
  );
}
