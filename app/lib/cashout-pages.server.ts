import { randomUUID } from "node:crypto";
import { data } from "react-router";
import type { AppContext } from "../context.ts";
import { assertFormCsrf, readForm, requireViewer } from "./context.server.ts";
import { dispatchIntent, formAction, type FormFailure } from "../../server/lib/operation.ts";
import { requireStaff } from "../../features/admin/staff.ts";
import { withFormToken } from "./circle-pages.server.ts";
import { presentPayout, presentWallet } from "../../features/wallet/operations.ts";
import { getPayoutAccount, walletSummary } from "../../features/wallet/service.ts";
import { incomeHolds } from "../../features/settlement/service.ts";
import { settlementSettings } from "../../features/settlement/settings.ts";
import { cashoutQueue, listCashouts, quote } from "../../features/cashouts/service.ts";
import {
  approveCashoutOperation,
  presentCashout,
  presentQuote,
  presentTaxRules,
  rejectCashoutOperation,
} from "../../features/cashouts/operations.ts";
import { cashoutSettings } from "../../features/cashouts/settings.ts";
import { isPayoutSandbox } from "../../features/cashouts/providers.ts";
import { AppError, presentError } from "../../common/app-error.ts";
import { translator } from "../../common/i18n.ts";

/**
 * `/monetization/cashout`: what may be cashed out and what is still pending, the payout account,
 * the arithmetic of the amount asked for (`?amount=`) before it is confirmed, and the cashouts.
 */
export async function cashoutPageData(app: AppContext, amountText: string | null) {
  const viewer = requireViewer(app);
  const [wallet, payout, holds, page] = await Promise.all([
    walletSummary(app.db, viewer.id),
    getPayoutAccount(app.db, viewer.id),
    incomeHolds(app.db, viewer.id),
    listCashouts(app.db, viewer.id, undefined, 50),
  ]);
  let preview = null;
  let previewError: string | null = null;
  if (amountText !== null) {
    const amount = /^\d{1,9}$/.test(amountText) ? Number(amountText) : NaN;
    if (!Number.isSafeInteger(amount) || amount <= 0) previewError = translator(app.locale)("validation:whole_amount");
    else {
      try {
        preview = presentQuote(quote(amount));
        if (amount > wallet.cashoutableSinecoinProfit) previewError = translator(app.locale)("errors:insufficient_cashoutable");
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        previewError = presentError(error, app.locale).message;
      }
    }
  }
  return withFormToken(app, {
    wallet: presentWallet(wallet),
    payout: presentPayout(payout),
    pending: holds.pending,
    debt: holds.debt,
    settlementDays: settlementSettings.days,
    min: cashoutSettings.min,
    feePermille: cashoutSettings.feePermille,
    fenPerSinecoin: cashoutSettings.fenPerSinecoin,
    tax: presentTaxRules(),
    sandbox: isPayoutSandbox(),
    amount: amountText,
    preview,
    previewError,
    cashouts: page.items.map(presentCashout),
    idempotencyKey: randomUUID(),
  });
}

/** `/admin/cashouts` (site admins): the cashouts waiting for review, oldest first, and the latest decided. */
export async function adminCashoutsLoader(app: AppContext) {
  await requireStaff(app.db, app.viewer, "manage_cashouts");
  const { waiting, recent } = await cashoutQueue(app.db);
  const row = (r: (typeof waiting)[number]) => ({ ...presentCashout(r.cashout), username: r.username, nickname: r.nickname });
  return withFormToken(app, { waiting: waiting.map(row), recent: recent.map(row) });
}

export async function adminCashoutsAction(app: AppContext, request: Request) {
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const t = translator(app.locale);
  const failed = (failure: FormFailure) =>
    data({ formError: failure.formError ?? Object.values(failure.fieldErrors ?? {})[0] }, { status: failure.status });
  const params = () => ({ id: String(form.get("cashout_id") ?? "") });
  return dispatchIntent(
    { app, request, form, params: {} },
    {
      approve: formAction(approveCashoutOperation, { params, done: () => ({ notice: t("monetization:admin.approved") }), failed }),
      reject: formAction(rejectCashoutOperation, { params, done: () => ({ notice: t("monetization:admin.rejected") }), failed }),
    },
  );
}
