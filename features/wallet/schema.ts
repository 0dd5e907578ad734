import { z } from "zod";
import { currencies } from "../../server/db/schema/ledger.ts";
import { paymentMethods } from "../../server/db/schema/economy.ts";
import { economySettings } from "./settings.ts";

/** What a wallet line was (a ledger transaction's kind). */
export const movementKinds = [
  "checkin_reward",
  "exchange",
  "topup",
  "tip",
  "unlock",
  "unlock_refund",
  "red_packet_fund",
  "red_packet_claim",
  "red_packet_return",
  "shop_purchase",
  "trade_escrow",
  "trade_reward",
  "trade_refund",
  "campaign_hold",
  "campaign_release",
  "ad_payout",
] as const;
export type MovementKind = (typeof movementKinds)[number];

export const transactionsQuerySchema = z.object({
  currency: z.enum(currencies).optional(),
  kind: z.enum(movementKinds).optional(),
  /** `2026-11`: the month in Asia/Shanghai. */
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
    .optional(),
  cursor: z
    .string()
    .regex(/^\d{1,18}$/)
    .optional(),
});
export type TransactionsQuery = z.infer<typeof transactionsQuerySchema>;

const wholeAmount = (max: number) =>
  z
    .number({ error: "validation:whole_amount" })
    .int("validation:whole_amount")
    .min(1, "validation:whole_amount")
    .max(max, "validation:amount_too_large");

export const exchangeInputSchema = z.strictObject({ gold: wholeAmount(10_000_000) });

export const topupInputSchema = z.strictObject({
  amount: wholeAmount(economySettings.topupMax),
  method: z.enum(paymentMethods, { error: "validation:payment_method" }),
});

export const payoutAccountInputSchema = z.strictObject({
  /** An Alipay login: a mainland mobile number or an email address. */
  alipay_account: z
    .string()
    .trim()
    .regex(/^(1\d{10}|[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,24})$/, "validation:alipay_account"),
  real_name: z
    .string()
    .trim()
    .min(2, "validation:real_name")
    .max(40, "validation:real_name")
    .regex(/^[\p{L}·.\s]+$/u, "validation:real_name"),
});
