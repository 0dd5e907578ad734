import type { Viewer } from "../accounts/viewer.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { walletSummary, type WalletSummary } from "../wallet/service.ts";
import { incomeHolds } from "../settlement/service.ts";
import { settlementSettings } from "../settlement/settings.ts";
import { profitAnalysis, profitSources } from "../analysis/profit.ts";
import type { Database } from "../../server/db/client.ts";

export interface MonetizationHome {
  wallet: WalletSummary;
  pending: number;
  debt: number;
  settlementDays: number;
  month: string;
  bySource: { source: (typeof profitSources)[number]; amount: number }[];
  monthTotal: number;
}

/**
 * A creator's earnings at a glance (`/monetization/home` and `GET /api/monetization/home/`): the
 * spec's three figures, income still pending settlement, debt left by late refunds, and this
 * Asia/Shanghai month's income by source, counted as the profit analysis counts it (the ledger).
 */
export async function monetizationHome(db: Database, viewer: Viewer, now: Date): Promise<MonetizationHome> {
  const today = shanghaiDay(now);
  const [wallet, holds, month] = await Promise.all([
    walletSummary(db, viewer.id),
    incomeHolds(db, viewer.id),
    profitAnalysis(db, viewer, { from: `${today.slice(0, 7)}-01`, to: today }),
  ]);
  return {
    wallet,
    pending: holds.pending,
    debt: holds.debt,
    settlementDays: settlementSettings.days,
    month: today.slice(0, 7),
    bySource: profitSources.map((source) => ({ source, amount: month.totals[source] })),
    monthTotal: month.totals.total,
  };
}
