import { economySettings } from "../wallet/settings.ts";

/**
 * The cashout's configured numbers, read once from the environment (README, "Cashouts"):
 * - `CASHOUT_MIN` (100): the smallest cashout, in sinecoin;
 * - `CASHOUT_FEN_PER_SINECOIN` (10): what one sinecoin of profit pays out, in fen;
 * - `CASHOUT_FEE_PERMILLE` (10): the platform's fee, in thousandths of the amount, rounded up
 *   to whole sinecoin (0 for none);
 * - `PAYOUT_PROVIDER` (`sandbox`): `sandbox` pays through the built-in payout sandbox (a tester
 *   marks each transfer paid or failed); `live` pays through Alipay and WeChat Pay with the
 *   payment credentials (features/payments/settings.ts) and is refused while top-ups are free.
 */
export interface CashoutSettings {
  min: number;
  max: number;
  fenPerSinecoin: number;
  feePermille: number;
  provider: "sandbox" | "live";
}

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number): number {
  const text = env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0 || value > max) throw new Error(`${name} must be a whole number from 0 to ${max}`);
  return value;
}

export function readCashoutSettings(env: NodeJS.ProcessEnv = process.env): CashoutSettings {
  const provider = env.PAYOUT_PROVIDER || "sandbox";
  if (provider !== "sandbox" && provider !== "live") throw new Error("PAYOUT_PROVIDER must be sandbox or live");
  return {
    min: Math.max(1, whole(env, "CASHOUT_MIN", 100, 10_000_000)),
    max: 10_000_000,
    fenPerSinecoin: Math.max(1, whole(env, "CASHOUT_FEN_PER_SINECOIN", 10, 100_000)),
    feePermille: whole(env, "CASHOUT_FEE_PERMILLE", 10, 500),
    provider,
  };
}

export const cashoutSettings: CashoutSettings = readCashoutSettings();

/**
 * Free coins must never become real money: a live payout provider is refused while top-ups cost
 * nothing (`TOPUP_FEN_PER_SINECOIN` = 0). The server calls this at start-up and does not start.
 */
export function assertPayoutsSafe(
  settings: CashoutSettings = cashoutSettings,
  topupFenPerSinecoin = economySettings.topupFenPerSinecoin,
): void {
  if (settings.provider === "live" && topupFenPerSinecoin === 0)
    throw new Error(
      "PAYOUT_PROVIDER=live is refused while top-ups are free (TOPUP_FEN_PER_SINECOIN=0): free coins would become real money",
    );
}

/**
 * Individual income tax withheld on labour remuneration (劳务报酬预扣预缴), per payment, in fen:
 * income up to `threshold` less a fixed `fixedDeduction`, above it less `percentDeduction` per
 * cent; the taxable part then taxed by bracket with its quick deduction.
 */
export const taxRules = {
  threshold: 400_000,
  fixedDeduction: 80_000,
  percentDeduction: 20,
  brackets: [
    { upTo: 2_000_000, rate: 20, quickDeduction: 0 },
    { upTo: 5_000_000, rate: 30, quickDeduction: 200_000 },
    { upTo: null, rate: 40, quickDeduction: 700_000 },
  ],
} as const;

export interface CashoutQuote {
  amount: number;
  fee: number;
  fenPerSinecoin: number;
  /** The labour remuneration: (amount − fee) × rate, in fen. */
  grossFen: number;
  /** What the income was reduced by before taxing, in fen. */
  deductionFen: number;
  taxableFen: number;
  /** The bracket's rate (per cent) and quick deduction (fen). */
  taxRate: number;
  quickDeductionFen: number;
  taxWithheldFen: number;
  netFen: number;
}

/** The whole arithmetic of a cashout of `amount` sinecoin, as the page shows it before confirming. */
export function quoteCashout(amount: number, settings: CashoutSettings = cashoutSettings): CashoutQuote {
  const fee = Math.min(amount - 1, Math.ceil((amount * settings.feePermille) / 1000));
  const grossFen = (amount - fee) * settings.fenPerSinecoin;
  const deductionFen =
    grossFen <= taxRules.threshold ? Math.min(grossFen, taxRules.fixedDeduction) : Math.floor((grossFen * taxRules.percentDeduction) / 100);
  const taxableFen = grossFen - deductionFen;
  const bracket = taxRules.brackets.find((b) => b.upTo === null || taxableFen <= b.upTo)!;
  const taxWithheldFen = taxableFen === 0 ? 0 : Math.max(0, Math.round((taxableFen * bracket.rate) / 100) - bracket.quickDeduction);
  return {
    amount,
    fee,
    fenPerSinecoin: settings.fenPerSinecoin,
    grossFen,
    deductionFen,
    taxableFen,
    taxRate: bracket.rate,
    quickDeductionFen: bracket.quickDeduction,
    taxWithheldFen,
    netFen: grossFen - taxWithheldFen,
  };
}
