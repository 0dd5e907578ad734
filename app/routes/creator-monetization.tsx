import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/creator-monetization";
import { getAppContext, requireViewer } from "../lib/context.server.ts";
import { can } from "../../features/accounts/policy.ts";
import { monetizationHome } from "../../features/monetization/home.ts";
import { presentWallet } from "../../features/wallet/operations.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { CreatorLayout } from "../components/creator-layout.tsx";
import { Amount } from "../components/coins.tsx";
import "../lib/creator-catalog.ts";
import "../lib/monetization-catalog.ts";
import creatorStyles from "../styles/creator.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "creator:monetization.title");
export const links = () => [{ rel: "stylesheet", href: creatorStyles }];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * `/creator/monetization`: the creator centre's entry to the monetization programme. Participants
 * see their figures at a glance and every programme page; others see how to join (`/monetization`).
 */
export async function loader({ context }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  if (!can(app.viewer, "enter_monetization_home")) return { participant: false as const, figures: null };
  const home = await monetizationHome(app.db, viewer, app.now());
  const wallet = presentWallet(home.wallet);
  return {
    participant: true as const,
    figures: {
      total_profit: wallet.sinecoin_total_profit,
      cashoutable: wallet.cashoutable_sinecoin_profit,
      pending: home.pending,
    },
  };
}

const pages = [
  ["/monetization/home", "home"],
  ["/monetization/reward", "reward"],
  ["/monetization/result", "result"],
  ["/monetization/cashout", "cashout"],
  ["/creator/analysis/profit", "analysis"],
  ["/monetization/missions", "missions"],
  ["/monetization/ads", "ads"],
] as const;

export default function CreatorMonetization({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("creator");
  const { t: tm } = useTranslation("monetization");
  const locale = i18n.language as Locale;
  const { participant, figures } = loaderData;
  return (
    <CreatorLayout>
      <section className="panel" aria-labelledby="creator-monetization-title">
        <h1 id="creator-monetization-title" className="page-title">
          {t("monetization.title")}
        </h1>
        {participant && figures ? (
          <>
            <dl className="amount-cards" data-testid="creator-monetization-figures">
              {(["total_profit", "cashoutable", "pending"] as const).map((key) => (
                <div className="amount-card" key={key}>
                  <dt>{tm(`home.${key}`)}</dt>
                  <dd>
                    <Amount value={figures[key]} currency="sinecoin" />
                  </dd>
                </div>
              ))}
            </dl>
            <ul data-testid="creator-monetization-pages">
              {pages.map(([path, key]) => (
                <li key={key}>
                  <Link to={localizePath(path, locale)}>{t(`monetization.pages.${key}`)}</Link>
                </li>
              ))}
            </ul>
          </>
        ) : (
          <>
            <p>{t("monetization.join_intro")}</p>
            <p>
              <Link to={localizePath("/monetization", locale)} className="button button-primary">
                {t("monetization.join")}
              </Link>
            </p>
          </>
        )}
      </section>
    </CreatorLayout>
  );
}
