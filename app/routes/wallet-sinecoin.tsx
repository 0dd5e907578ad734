import { Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/wallet-sinecoin";
import { getAppContext } from "../lib/context.server.ts";
import { movementPage, walletPageData } from "../lib/wallet-pages.server.ts";
import { localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { WalletLayout } from "../components/wallet-layout.tsx";
import { MovementList } from "../components/movement-list.tsx";
import { movementKinds, transactionsQuerySchema } from "../../features/wallet/schema.ts";
import "../lib/wallet-catalog.ts";
import walletStyles from "../styles/wallet.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "wallet:sinecoin.title");
export const links = () => [{ rel: "stylesheet", href: walletStyles }];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** `/wallet/sinecoin`: every sinecoin line, 20 a page, filtered by kind and month (a plain GET form). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const search = Object.fromEntries([...pageUrl(request.url).searchParams].filter(([, value]) => value !== ""));
  const parsed = transactionsQuerySchema.safeParse(search);
  const query = parsed.success ? parsed.data : {};
  const page = await movementPage(app, { ...query, currency: "sinecoin" });
  return walletPageData(app, { ...page, kind: query.kind ?? "", month: query.month ?? "" });
}

export default function WalletSinecoin({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("wallet");
  const locale = i18n.language as Locale;
  const { lines, nextCursor, kind, month } = loaderData;
  const path = localizePath("/wallet/sinecoin", locale);
  const more = new URLSearchParams({
    ...(kind ? { kind } : {}),
    ...(month ? { month } : {}),
    ...(nextCursor ? { cursor: nextCursor } : {}),
  });
  return (
    <WalletLayout>
      <section className="panel" aria-labelledby="wallet-sinecoin-title">
        <h1 id="wallet-sinecoin-title" className="page-title">
          {t("sinecoin.title")}
        </h1>
        <p className="muted">{t("sinecoin.intro")}</p>
        <Form method="get" action={path} className="wallet-filters">
          <label>
            {t("list.kind")}{" "}
            <select name="kind" defaultValue={kind}>
              <option value="">{t("list.all_kinds")}</option>
              {movementKinds
                .filter((value) => value !== "checkin_reward" && value !== "mission_reward")
                .map((value) => (
                  <option key={value} value={value}>
                    {t(`list.kinds.${value}`)}
                  </option>
                ))}
            </select>
          </label>
          <label>
            {t("list.month")} <input type="month" name="month" defaultValue={month} />
          </label>
          <button type="submit" className="button">
            {t("list.apply")}
          </button>
        </Form>
        <MovementList lines={lines} />
        {nextCursor ? (
          <p>
            <Link to={`${path}?${more.toString()}`}>{t("list.more")}</Link>
          </p>
        ) : null}
      </section>
    </WalletLayout>
  );
}
