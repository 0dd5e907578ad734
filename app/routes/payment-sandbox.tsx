import { Form, redirect } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/payment-sandbox";
import { assertFormCsrf, getAppContext, notFound, readForm, requireViewer } from "../lib/context.server.ts";
import { walletPageData } from "../lib/wallet-pages.server.ts";
import { getTopup, orderPath, sandboxNotify } from "../../features/payments/service.ts";
import { orderIdSchema, presentTopup } from "../../features/payments/operations.ts";
import { paymentSettings } from "../../features/payments/settings.ts";
import { AppError } from "../../common/app-error.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { OrderReceipt } from "../components/order-receipt.tsx";
import "../lib/wallet-catalog.ts";
import walletStyles from "../styles/wallet.css?url";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "wallet:cashier.title");
export const links = () => [{ rel: "stylesheet", href: walletStyles }];
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** The sandbox exists only in sandbox mode, for the order's owner. */
function sandboxOrderId(params: { orderId?: string }, request: Request): string {
  const id = orderIdSchema.safeParse(params.orderId);
  if (paymentSettings().mode !== "sandbox" || !id.success) notFound(request);
  return id.data;
}

/** `/payments/sandbox/:orderId`: the built-in payment sandbox's cashier: pay, fail or cancel; nothing is charged. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  const order = presentTopup(await getTopup(app.db, viewer.id, sandboxOrderId(params, request), app.now()));
  return walletPageData(app, { order });
}

/**
 * Pay and fail send the signed notify a real provider would send, through the same
 * `receiveNotify` as `POST /api/payments/sandbox/notify/`, then return to the order page; cancel
 * returns to the top-up page and leaves the order to expire.
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const order = await getTopup(app.db, viewer.id, sandboxOrderId(params, request), app.now());
  const intent = form.get("intent");
  if (intent === "cancel") throw redirect(localizePath("/wallet/sinecoin_recharge", app.locale), 303);
  if (intent !== "pay" && intent !== "fail") throw new AppError("bad_request");
  if (order.status === "created") await sandboxNotify(app.db, order, intent === "pay" ? "paid" : "failed", app.now());
  throw redirect(orderPath(order.id, app.locale), 303);
}

export default function PaymentSandbox({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("wallet");
  const locale = i18n.language as Locale;
  const { order, csrfToken } = loaderData;
  const path = localizePath(`/payments/sandbox/${order.order_id}`, locale);
  return (
    <section className="panel cashier" aria-labelledby="cashier-title">
      <h1 id="cashier-title" className="page-title">
        {t("cashier.title")}
      </h1>
      <p className="muted">{t("cashier.intro")}</p>
      <OrderReceipt order={order} withPrice />
      {order.status === "created" ? (
        <Form method="post" action={path} className="cashier-actions">
          <input type="hidden" name="csrftoken" value={csrfToken} />
          <button type="submit" name="intent" value="pay" className="button button-primary">
            {t("cashier.pay")}
          </button>
          <button type="submit" name="intent" value="fail" className="button">
            {t("cashier.fail")}
          </button>
          <button type="submit" name="intent" value="cancel" className="button">
            {t("cashier.cancel")}
          </button>
        </Form>
      ) : (
        <p className="notice">{t("cashier.closed", { status: t(`recharge.status_${order.status}`) })}</p>
      )}
    </section>
  );
}
