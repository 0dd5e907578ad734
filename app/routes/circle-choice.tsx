import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/circle-choice";
import { getAppContext } from "../lib/context.server.ts";
import { circleChoice, type ChoiceKind } from "../lib/circle-choice.server.ts";
import { AppError } from "../../common/app-error.ts";
import { localizePath, pageUrl, stripLocale, type Locale } from "../../common/locale.ts";
import { editorPath } from "../../features/writings/paths.ts";
import { pageMeta } from "../lib/meta.ts";
import "../lib/editor-catalog.ts";

const kindOf = (pathname: string): ChoiceKind => (stripLocale(pathname).startsWith("/ask") ? "ask" : "write");

export const meta: Route.MetaFunction = ({ location }) =>
  pageMeta(location, kindOf(location.pathname) === "ask" ? "editor:chooser.ask_title" : "editor:chooser.write_title");

/**
 * `/write` and `/ask` (the header's Write and Ask): where a new article or question goes, chosen
 * first. The circles the viewer joined come first, then the other circles they may post in, and
 * the circle they last posted in leads with a button of its own. Signed in only (visitors sign in
 * and come back); each choice is a plain link to that circle's editor or ask page.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  if (!app.viewer) throw new AppError("not_authenticated");
  const kind = kindOf(pageUrl(request.url).pathname);
  return { kind, ...(await circleChoice(app, app.viewer, kind, app.locale)) };
}

export default function CircleChoice({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("editor");
  const locale = i18n.language as Locale;
  const { kind, circles, last } = loaderData;
  const target = (id: number) => localizePath(kind === "ask" ? `/circles/${id}/ask` : editorPath(id, "article"), locale);
  const lastCircle = circles.find((circle) => circle.id === last);
  const groups = [
    { key: "joined", title: t("chooser.joined"), items: circles.filter((circle) => circle.joined) },
    { key: "others", title: t("chooser.others"), items: circles.filter((circle) => !circle.joined) },
  ].filter((group) => group.items.length > 0);
  return (
    <section className="panel circle-choice" aria-labelledby="circle-choice-title" data-testid="circle-choice">
      <h1 id="circle-choice-title" className="page-title">
        {kind === "ask" ? t("chooser.ask_title") : t("chooser.write_title")}
      </h1>
      <p className="muted">{kind === "ask" ? t("chooser.ask_intro") : t("chooser.write_intro")}</p>
      {lastCircle ? (
        <p>
          <Link className="button button-primary" to={target(lastCircle.id)} data-testid="circle-choice-last">
            {t("chooser.continue", { circle: lastCircle.name })}
          </Link>
        </p>
      ) : null}
      {groups.map((group) => (
        <section key={group.key} aria-labelledby={`circle-choice-${group.key}`}>
          <h2 id={`circle-choice-${group.key}`} className="circle-choice-heading">
            {group.title}
          </h2>
          <ul className="circle-choice-list" data-testid={`circle-choice-${group.key}`}>
            {group.items.map((circle) => (
              <li key={circle.id}>
                <Link className="circle-choice-item" to={target(circle.id)} data-circle={circle.id}>
                  <span>{circle.name}</span>
                  {circle.id === last ? <span className="circle-choice-badge">{t("chooser.last")}</span> : null}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
      {circles.length === 0 ? <p>{t("chooser.none")}</p> : null}
      <p>
        <Link to={localizePath("/circles", locale)}>{t("chooser.browse")}</Link>
      </p>
    </section>
  );
}
