import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/circles";
import { getAppContext } from "../lib/context.server.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { CircleLogo } from "../components/circle-logo.tsx";
import { listCircleTree, type CircleNode } from "../../features/circles/service.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "common:circles.tree_title");

export async function loader({ context }: Route.LoaderArgs) {
  const app = getAppContext(context);
  return { tree: await listCircleTree(app.db, app.locale) };
}

export default function Circles({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("common");
  return (
    <section className="panel" aria-labelledby="circles-title">
      <h1 id="circles-title" className="page-title">
        {t("circles.tree_title")}
      </h1>
      <p className="muted">{t("circles.tree_intro")}</p>
      <CircleTree nodes={loaderData.tree} />
    </section>
  );
}

function CircleTree({ nodes }: { nodes: CircleNode[] }) {
  const { t, i18n } = useTranslation("common");
  const locale = i18n.language as Locale;
  return (
    <ul className="circle-tree">
      {nodes.map((node) => (
        <li key={node.id}>
          <div className="circle-tree-item">
            <CircleLogo circle={node} size={40} locale={locale} />
            <div>
              <Link to={localizePath(`/circles/${node.id}`, locale)}>
                <strong>{node.name}</strong>
              </Link>
              {node.children.length > 0 ? <span className="muted"> · {t("circles.subcircle_count", { count: node.children.length })}</span> : null}
              <div className="muted">{node.description}</div>
            </div>
          </div>
          {node.children.length > 0 ? <CircleTree nodes={node.children} /> : null}
        </li>
      ))}
    </ul>
  );
}
