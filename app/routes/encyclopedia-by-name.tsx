import { Link, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/encyclopedia-by-name";
import { getAppContext, notFound, tagPage } from "../lib/context.server.ts";
import { circleIdOf, tagCirclePage } from "../lib/circle-pages.server.ts";
import { pageMeta } from "../lib/meta.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { loadCircleAccess } from "../../features/circles/access.server.ts";
import { canViewCircle } from "../../features/circles/policy.ts";
import { can } from "../../features/encyclopedia/policy.ts";
import { entriesByName } from "../../features/encyclopedia/service.ts";
import { bracketed, entryPath } from "../../features/encyclopedia/paths.ts";
import { contentTag } from "../../server/lib/cache-tags.ts";
import "../lib/encyclopedia-catalog.ts";

export const meta: Route.MetaFunction = ({ location, loaderData }) =>
  pageMeta(location, (t) => t("encyclopedia:senses.title", { name: loaderData?.name ?? "" }));

/**
 * `/circles/{cid}/encyclopedia/by-name/{name}`: a name or alias leads to its entry; a name of
 * several entries is a disambiguation page listing each sense with its note (Baike's 义项).
 */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const circleId = circleIdOf(request, params.circleId);
  const name = (params.name ?? "").slice(0, 100);
  const access = await loadCircleAccess(app.db, app.viewer, circleId);
  if (!access || !canViewCircle(access) || !can(app.viewer, "read", access)) notFound(request);
  const senses = await entriesByName(app.db, app.viewer, circleId, name);
  if (senses.length === 0) notFound(request);
  if (senses.length === 1) throw redirect(localizePath(entryPath(senses[0]!), app.locale), 302);
  tagPage(app, ...senses.map((sense) => contentTag("entry", sense.id)));
  await tagCirclePage(app, circleId);
  return { name, circleId, senses };
}

export default function EncyclopediaByName({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("encyclopedia");
  const locale = i18n.language as Locale;
  const { name, senses } = loaderData;
  return (
    <section className="panel" aria-labelledby="senses-title" data-testid="entry-senses">
      <h1 id="senses-title" className="page-title">
        {t("senses.title", { name })}
      </h1>
      <p className="muted">{t("senses.intro", { name, count: senses.length })}</p>
      <ul>
        {senses.map((sense) => (
          <li key={sense.id} lang={sense.language}>
            <Link to={localizePath(entryPath(sense), locale)}>{sense.name}</Link>
            {sense.disambiguation ? <span className="muted">{bracketed(sense.disambiguation, sense.language)}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
