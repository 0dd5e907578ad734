import { z } from "zod";

/**
 * Every kind of ledger transaction, in one place: the shape of its `data` (checked when it is
 * posted) and what it means for the user's income. The `ledger_transactions_kind_check`
 * constraint keeps the column to these names (the `ledger_kinds` migration); a new kind is a line
 * here, its locale texts (`wallet.json`, `kind.*`) and a migration widening the constraint.
 *
 * `income` says whether a kind is income and from which source, so income can be attributed to a
 * source (and, through the kind's event, to a piece of content). `cashable: true` makes the
 * receiving user's sinecoin profit (what a cashout may later pay out): only money from others
 * for one's own work. `reverses: true` takes such income back: the paying user's profit shrinks
 * by what they pay (never below zero). A later "pending → available" settlement keys off the same
 * declaration. Money a user moves to themselves nets out per transaction and is never profit.
 */
export const incomeSources = ["tips", "unlocks", "rewards", "ads", "missions"] as const;
export type IncomeSource = (typeof incomeSources)[number];

export interface IncomeDeclaration {
  source: IncomeSource;
  cashable: boolean;
  reverses?: true;
}

const id = z.number().int().positive();
const described = { title: z.string(), path: z.string() };

function kind<Data extends z.ZodType<Record<string, unknown>>>(
  data: Data,
  income: IncomeDeclaration | null,
  options: { paysOut?: true } = {},
) {
  return { data, income, paysOut: options.paysOut === true };
}

export const ledgerKinds = {
  /** Daily check-in gold from `system:checkin_rewards`: a reward, never cashable. */
  checkin_reward: kind(z.object({ day: z.string(), consecutiveDays: z.number().int() }).strict(), { source: "rewards", cashable: false }),
  /** Gold for sinecoin at the exchange desk: the user's own money changing currency. */
  exchange: kind(z.object({ rate: z.number().int().positive() }).strict(), null),
  /** A paid top-up order credited from `system:topups`. */
  topup: kind(z.object({ orderId: z.string(), method: z.string(), provider: z.string() }).strict(), null),
  /** A tip on a writing, an answer or a book: the author's cashable income. */
  tip: kind(
    z.object({ tipId: id, subjectType: z.string(), subjectId: id, authorId: id, ...described, counterparty: z.string() }).strict(),
    { source: "tips", cashable: true },
  ),
  /** A reader paid to read a writing's paid part: the author's cashable income. */
  unlock: kind(z.object({ writingId: id, unlockId: id, authorId: id, ...described, counterparty: z.string() }).strict(), {
    source: "unlocks",
    cashable: true,
  }),
  /** An unlock paid back (a refund request the author or a moderator approved): takes the income back. */
  unlock_refund: kind(
    z.object({ writingId: id, unlockId: id, authorId: id, requestId: id.optional(), ...described, counterparty: z.string() }).strict(),
    { source: "unlocks", cashable: true, reverses: true },
  ),
  /** A writing's author moves sinecoin into a red packet's hold. */
  red_packet_fund: kind(z.object({ redPacketId: id, writingId: id, ...described }).strict(), null),
  /** A share of a red packet: spendable, never profit (it is the funder's own topped-up money). */
  red_packet_claim: kind(z.object({ redPacketId: id, writingId: id, ...described, counterparty: z.string() }).strict(), null),
  /** What was left in a red packet back to its funder (it expired, or its writing was deleted). */
  red_packet_return: kind(
    z
      .object({ redPacketId: id, writingId: id.nullable(), reason: z.enum(["expired", "writing_deleted"]), ...described })
      .partial({ title: true, path: true })
      .strict(),
    null,
  ),
  /** An item bought in the shop; `title` is the item's code (the wallet names it in the reader's language). */
  shop_purchase: kind(z.object({ item: z.string(), ownedId: id, ...described }).strict(), null),
  /** A VIP or SVIP membership bought or renewed for sinecoin (features/monetization/memberships.ts): spending, never income. */
  membership_purchase: kind(
    z
      .object({
        tier: z.enum(["vip", "svip"]),
        days: z.number().int().positive(),
        endsAt: z.string(),
        renewal: z.enum(["bought", "extended", "auto"]),
        ...described,
      })
      .strict(),
    null,
  ),
  /** Granted (or taken) by the system: administrative corrections, tests and benchmarks. */
  grant: kind(z.object({ reason: z.string() }).partial().strict(), null),
  /**
   * Income past its settlement window moved from the user's `pending` hold to `available` (what a
   * cashout may take), a debt left by a late refund recovered first (`features/settlement`).
   */
  settlement: kind(z.object({ cutoff: z.string() }).strict(), null),
  /** A paid cashout: the coins in the user's `payout_hold` leave to `system:payouts` (features/cashouts). */
  cashout: kind(z.object({ payoutId: z.string() }).strict(), null, { paysOut: true }),
  /**
   * A cashout requested: the coins move from the purse to `payout_hold` and the amount leaves the
   * `available` profit hold, so neither can be spent or cashed twice.
   */
  cashout_request: kind(z.object({ payoutId: z.string(), fee: z.number().int().nonnegative() }).strict(), null),
  /** A cashout cancelled, rejected or failed: the held coins back to the purse and to available profit. */
  cashout_return: kind(z.object({ payoutId: z.string(), reason: z.enum(["cancelled", "rejected", "failed"]) }).strict(), null),

  // --- Missions and the task market (trade) ---
  /** A poster moves reward × slots of their sinecoin into a task's hold (`system:trade_mission:<id>`). */
  trade_escrow: kind(z.object({ missionId: id, slots: z.number().int().positive(), ...described }).strict(), null),
  /** One approved submission's reward from the task's hold to its worker: pay for work, cashable. */
  trade_reward: kind(z.object({ missionId: id, progressId: id, ...described, counterparty: z.string() }).strict(), {
    source: "missions",
    cashable: true,
  }),
  /** Held reward of slots nobody took (cancelled, past the deadline) back to the poster: their own money. */
  trade_refund: kind(
    z
      .object({
        missionId: id,
        slots: z.number().int().positive(),
        reason: z.enum(["cancelled", "deadline", "rejected_after_close"]),
        ...described,
      })
      .strict(),
    null,
  ),
  /** A daily or weekly mission's gold from `system:mission_rewards`: a reward, never cashable. */
  mission_reward: kind(z.object({ missionId: id, key: z.string(), periodStart: z.string() }).strict(), {
    source: "rewards",
    cashable: false,
  }),
  /** A creator mission's sinecoin from `system:mission_rewards`: profit, pending until settled. */
  mission_income: kind(z.object({ missionId: id, key: z.string(), periodStart: z.string() }).strict(), {
    source: "missions",
    cashable: true,
  }),
  // --- end of missions and trade ---

  // --- Self-serve ads (features/ads) ---
  /** At approval an advertiser's whole campaign budget moves into its hold (`system:ad_campaign:<id>`). */
  campaign_hold: kind(z.object({ campaignId: id, ...described }).strict(), null),
  /** What a campaign did not spend back to its advertiser (ended, cancelled, rejected after a change). */
  campaign_release: kind(z.object({ campaignId: id, reason: z.enum(["ended", "exhausted", "cancelled"]), ...described }).strict(), null),
  /** A day's billable spend from a campaign's hold: the creators' share of their pages (cashable) and the platform's. */
  ad_payout: kind(z.object({ campaignId: id, day: z.string(), spend: z.number().int(), ...described }).strict(), {
    source: "ads",
    cashable: true,
  }),
  // --- end of self-serve ads ---
} as const;

export type LedgerKind = keyof typeof ledgerKinds;
export type LedgerData<Kind extends LedgerKind> = z.input<(typeof ledgerKinds)[Kind]["data"]>;
export const ledgerKindNames = Object.keys(ledgerKinds) as LedgerKind[];

/** The kinds whose credits are cashable profit, and those that take it back (for SQL checks). */
export const profitKinds = ledgerKindNames.filter((name) => ledgerKinds[name].income?.cashable && !ledgerKinds[name].income?.reverses);
export const profitReversalKinds = ledgerKindNames.filter(
  (name) => ledgerKinds[name].income?.cashable && ledgerKinds[name].income?.reverses,
);
export const cashoutKinds = ledgerKindNames.filter((name) => ledgerKinds[name].paysOut);
