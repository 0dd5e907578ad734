import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/wallet-topup";
import { getAppContext, notFound, requireViewer } from "../lib/context.server.ts";
import { walletPageData } from "../lib/wallet-pages.server.ts";
import { refreshTopup } from "../../features/payments/service.ts";
import { orderIdSchema, presentTopup } from "../../features/payments/operations.ts";
import { paymentSettings } from "../../features/payments/settings.ts";
import { localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { WalletLayout } from "../components/wallet-layout.tsx";
import { BalanceLine } from "../components/amount-choice.tsx";
import { OrderReceipt } from "../components/order-receipt.tsx";
import "../lib/wallet-catalog.ts";
import walletStyles from "../styles/wallet.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "wallet:recharge.order_title");
export const links = () => [{ rel: "stylesheet", href: walletStyles }];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * `/wallet/topups/:orderId`: where the payer comes back to: the order's state (asked of the
 * provider while it is open, so a payment whose notify is late shows, and is credited, now), the
 * way to the cashier while it is open.
 */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  const id = orderIdSchema.safeParse(params.orderId);
  if (!id.success) notFound(request);
  const order = presentTopup(await refreshTopup(app.db, viewer.id, id.data, app.now()));
  const codeUrl = pageUrl(request.url).searchParams.get("code_url");
  return walletPageData(app, {
    order,
    sandbox: paymentSettings().mode === "sandbox",
    codeUrl: codeUrl && /^weixin:\/\/[\w./?=&%-]{1,200}$/.test(codeUrl) ? codeUrl : null,
  });
}

export default function WalletTopup({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("wallet");
  const locale = i18n.language as Locale;
  const { order, sandbox, codeUrl, wallet } = loaderData;
  const result =
    order.status === "paid"
      ? t("recharge.paid", { amount: order.amount })
      : order.status === "failed"
        ? t("recharge.failed")
        : order.status === "expired"
          ? t("recharge.expired")
          : t("recharge.waiting");
  return (
    <WalletLayout>
      <section className="panel" aria-labelledby="topup-title">
        <h1 id="topup-title" className="page-title">
          {t("recharge.order_title")}
        </h1>
        <p
          className={order.status === "paid" ? "notice" : order.status === "created" ? "muted" : "notice notice-warning"}
          role="status"
          data-testid="topup-status"
          data-status={order.status}
        >
          {result}
        </p>
        <OrderReceipt order={order} />
        {order.status === "created" && codeUrl ? (
          <p>
            <code>{codeUrl}</code>
          </p>
        ) : null}
        <p className="wallet-links">
          {order.status === "created" && sandbox ? (
            <Link className="button button-primary" to={localizePath(`/payments/sandbox/${order.order_id}`, locale)}>
              {t("cashier.title")}
            </Link>
          ) : null}
          {order.status === "created" ? (
            <Link className="button" to={localizePath(`/wallet/topups/${order.order_id}`, locale)} reloadDocument>
              {t("recharge.refresh")}
            </Link>
          ) : (
            <Link className="button" to={localizePath("/wallet/sinecoin_recharge", locale)}>
              {t("recharge.again")}
            </Link>
          )}
          <Link className="button" to={localizePath("/wallet", locale)}>
            {t("recharge.back_to_wallet")}
          </Link>
        </p>
        <BalanceLine label={t("recharge.balance")} value={wallet.sinecoin} />
      </section>
    </WalletLayout>
  );
}
