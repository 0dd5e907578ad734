/**
 * The economy's configured numbers, read once from the environment (documented in the README):
 * - `GOLD_PER_SINECOIN` (10): gold given for one sinecoin in the exchange;
 * - `TIP_PLATFORM_SHARE_PERCENT` (0): the platform's share of each tip, while the site is free 0;
 * - `TOPUP_FEN_PER_SINECOIN` (0): what one sinecoin costs in fen; 0 while the site charges nothing;
 * - `FREE_TOPUP_DAILY_LIMIT` (500): while top-ups are free, the sinecoin one account may top up per
 *   Asia/Shanghai day (open and paid orders count), so free coins stay an economy, not a mint.
 */
export interface EconomySettings {
  goldPerSinecoin: number;
  tipPlatformSharePercent: number;
  topupFenPerSinecoin: number;
  freeTopupDailyLimit: number;
  /** Bounds of one top-up, in sinecoin. */
  topupMin: number;
  topupMax: number;
  /** Minutes an unpaid top-up order stays open. */
  orderMinutes: number;
}

function whole(name: string, fallback: number, max: number): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0 || value > max) throw new Error(`${name} must be a whole number from 0 to ${max}`);
  return value;
}

export const economySettings: EconomySettings = {
  goldPerSinecoin: Math.max(1, whole("GOLD_PER_SINECOIN", 10, 1_000_000)),
  tipPlatformSharePercent: whole("TIP_PLATFORM_SHARE_PERCENT", 0, 100),
  topupFenPerSinecoin: whole("TOPUP_FEN_PER_SINECOIN", 0, 1_000_000),
  freeTopupDailyLimit: whole("FREE_TOPUP_DAILY_LIMIT", 500, 1_000_000_000),
  topupMin: 1,
  topupMax: 50_000,
  orderMinutes: 15,
};

/** The top-up presets of the spec (§9). */
export const topupPresets = [10, 20, 50, 100, 200, 500] as const;

/** The author's part of a tip after the platform's share (rounded down for the platform: the author never loses a coin to rounding). */
export function authorShare(amount: number, sharePercent = economySettings.tipPlatformSharePercent): number {
  return amount - Math.floor((amount * sharePercent) / 100);
}
