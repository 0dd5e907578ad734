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
  "mission_reward",
  "mission_income",
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

export const payoutAccountProviders = ["alipay", "wechat"] as const;

const alipayLogin = /^(1\d{10}|[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,24})$/;
const wechatOpenid = /^[A-Za-z0-9_-]{6,64}$/;

/**
 * The payout account: `provider` alipay (the default; `account` an Alipay login: a mainland mobile
 * number or an email address, also accepted as `alipay_account`) or wechat (`account` the payee's
 * openid under our WeChat app), with the real name on it.
 */
export const payoutAccountInputSchema = z
  .strictObject({
    provider: z.enum(payoutAccountProviders, { error: "validation:payout_provider" }).optional(),
    account: z.string().trim().max(256).optional(),
    alipay_account: z.string().trim().max(256).optional(),
    real_name: z
      .string()
      .trim()
      .min(2, "validation:real_name")
      .max(40, "validation:real_name")
      .regex(/^[\p{L}·.\s]+$/u, "validation:real_name"),
  })
  .superRefine((value, context) => {
    const provider = value.provider ?? "alipay";
    const account = value.account ?? value.alipay_account ?? "";
    const field = value.account === undefined && value.alipay_account !== undefined ? "alipay_account" : "account";
    if (provider === "alipay" && !alipayLogin.test(account))
      context.addIssue({ code: "custom", path: [field], message: "validation:alipay_account" });
    if (provider === "wechat" && !wechatOpenid.test(account))
      context.addIssue({ code: "custom", path: [field], message: "validation:wechat_openid" });
  })
  .transform((value) => ({
    provider: value.provider ?? ("alipay" as const),
    account: value.account ?? value.alipay_account ?? "",
    real_name: value.real_name,
  }));
