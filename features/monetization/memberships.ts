import type { UserType } from "../accounts/constants.ts";
import type { membershipTiers } from "../../server/db/schema/monetization.ts";

/*
 * The membership plans sold for sinecoin, as data: each tier's user type, its price per plan
 * length and its benefits (catalog keys `monetization:membership.benefit.<key>`). A price or a
 * plan is an edit here, nothing else.
 */

export type MembershipTier = (typeof membershipTiers)[number];

/** The plan lengths on sale, in days. */
export const membershipDays = [30, 90, 365] as const;
export type MembershipDays = (typeof membershipDays)[number];

export interface MembershipPlan {
  tier: MembershipTier;
  userType: UserType;
  /** Sinecoin per plan length. */
  prices: Record<MembershipDays, number>;
  /** What it gives, each true of the code: participation, no ads, the profile mark. */
  benefits: readonly ("programme" | "ad_free" | "mark")[];
}

export const membershipPlans: readonly MembershipPlan[] = [
  { tier: "vip", userType: "VIP users", prices: { 30: 30, 90: 80, 365: 300 }, benefits: ["programme", "ad_free", "mark"] },
  { tier: "svip", userType: "SVIP users", prices: { 30: 60, 90: 160, 365: 600 }, benefits: ["programme", "ad_free", "mark"] },
];

export function membershipPlan(tier: MembershipTier): MembershipPlan {
  return membershipPlans.find((plan) => plan.tier === tier)!;
}

/** The cheapest plan: what the membership path's progress bar measures the purse against. */
export const cheapestMembershipPrice = Math.min(...membershipPlans.flatMap((plan) => Object.values(plan.prices)));

/** How user types rank: a membership raises a lower type and never lowers a higher one. */
const typeRank: Record<UserType, number> = { "Registered users": 0, "Official users": 1, "VIP users": 2, "SVIP users": 3 };

export function higherType(a: UserType, b: UserType): UserType {
  return typeRank[a] >= typeRank[b] ? a : b;
}

export const membershipTypes: readonly UserType[] = membershipPlans.map((plan) => plan.userType);
