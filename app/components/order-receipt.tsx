import { useTranslation } from "../lib/i18n.tsx";
import { Amount } from "./coins.tsx";

interface ReceiptOrder {
  order_id: string;
  amount: number;
  method: string;
  price_fen?: number;
}

/**
 * A top-up order as a receipt: one line per fact, label left and value right, the sinecoin (and,
 * at the cashier, the price) as the total line.
 */
export function OrderReceipt({ order, withPrice = false }: { order: ReceiptOrder; withPrice?: boolean }) {
  const { t } = useTranslation("wallet");
  return (
    <dl className="receipt" data-testid="order-receipt">
      <div>
        <dt>{t("cashier.order")}</dt>
        <dd>
          <code>{order.order_id}</code>
        </dd>
      </div>
      <div>
        <dt>{t("cashier.method")}</dt>
        <dd>{t(`recharge.${order.method}`)}</dd>
      </div>
      <div className={withPrice ? undefined : "receipt-total"}>
        <dt>{t("cashier.amount")}</dt>
        <dd>
          <Amount value={order.amount} currency="sinecoin" />
        </dd>
      </div>
      {withPrice && order.price_fen !== undefined ? (
        <div className="receipt-total">
          <dt>{t("cashier.price")}</dt>
          <dd>¥{(order.price_fen / 100).toFixed(2)}</dd>
        </div>
      ) : null}
    </dl>
  );
}
