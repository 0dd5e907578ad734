import { cheapestMembershipPrice } from "./memberships.ts";

/**
 * The monetization programme's paths and their criteria, as data: a criterion is a measured
 * number (`features/monetization/service.ts` measures each key) against its `required` bound,
 * `at_least` or `at_most`. Changing a bound or dropping a criterion is an edit here, nothing else.
 */
export type CriterionKey = "followers" | "original_pieces" | "account_age_days" | "upheld_reports_90_days" | "sinecoin_balance";

export interface Criterion {
  key: CriterionKey;
  required: number;
  bound: "at_least" | "at_most";
}

export interface MonetizationPath {
  key: "creator" | "membership";
  criteria: readonly Criterion[];
}

export const monetizationPaths: readonly MonetizationPath[] = [
  {
    key: "creator",
    criteria: [
      { key: "followers", required: 100, bound: "at_least" },
      { key: "original_pieces", required: 10, bound: "at_least" },
      { key: "account_age_days", required: 30, bound: "at_least" },
      { key: "upheld_reports_90_days", required: 0, bound: "at_most" },
    ],
  },
  {
    // The other path: a VIP or SVIP membership bought in the shop; its bar is the purse against the cheapest plan.
    key: "membership",
    criteria: [{ key: "sinecoin_balance", required: cheapestMembershipPrice, bound: "at_least" }],
  },
];

export function criterionMet(criterion: Criterion, current: number): boolean {
  return criterion.bound === "at_least" ? current >= criterion.required : current <= criterion.required;
}
