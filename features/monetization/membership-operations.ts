import { z } from "zod";
import { defineOperation } from "../../server/lib/operation.ts";
import { membershipTiers } from "../../server/db/schema/monetization.ts";
import { membershipDays, membershipPlans, type MembershipDays, type MembershipPlan } from "./memberships.ts";
import { buyMembership, membershipOf, setMembershipAutoRenew, type Membership, type MembershipPurchase } from "./membership-service.ts";

/* VIP and SVIP memberships: the plans, the viewer's membership, buying one, automatic renewal. Served by the API and `/shop`. */

export const membershipAnswer = z.strictObject({
  tier: z.enum(membershipTiers),
  days: z.number().int(),
  starts_at: z.string(),
  ends_at: z.string(),
  auto_renew: z.boolean(),
  active: z.boolean(),
});

export function presentMembership(membership: Membership): z.infer<typeof membershipAnswer> {
  return {
    tier: membership.tier,
    days: membership.days,
    starts_at: membership.startsAt,
    ends_at: membership.endsAt,
    auto_renew: membership.autoRenew,
    active: membership.active,
  };
}

const planAnswer = z.strictObject({
  tier: z.enum(membershipTiers),
  user_type: z.string(),
  prices: z.array(z.strictObject({ days: z.number().int(), price: z.number().int() })),
  benefits: z.array(z.string()),
});

export function presentPlan(plan: MembershipPlan): z.infer<typeof planAnswer> {
  return {
    tier: plan.tier,
    user_type: plan.userType,
    prices: membershipDays.map((days) => ({ days, price: plan.prices[days] })),
    benefits: [...plan.benefits],
  };
}

const membershipsAnswer = z.strictObject({ plans: z.array(planAnswer), membership: membershipAnswer.nullable() });

export const membershipsOperation = defineOperation({
  name: "memberships",
  input: {},
  viewer: "optional",
  run: async (services, viewer) => ({
    plans: membershipPlans,
    membership: viewer ? await membershipOf(services.db, viewer.id, services.now()) : null,
  }),
  present: (result: { plans: readonly MembershipPlan[]; membership: Membership | null }) => ({
    plans: result.plans.map(presentPlan),
    membership: result.membership ? presentMembership(result.membership) : null,
  }),
  response: membershipsAnswer,
  failures: [],
});

export const buyMembershipInput = z.strictObject({
  tier: z.enum(membershipTiers, { error: "validation:membership_tier" }),
  days: z
    .number({ error: "validation:membership_days" })
    .int({ error: "validation:membership_days" })
    .refine((days) => (membershipDays as readonly number[]).includes(days), { error: "validation:membership_days" }),
  auto_renew: z.boolean().default(false),
});

export const buyMembershipOperation = defineOperation({
  name: "buyMembership",
  input: { body: buyMembershipInput },
  viewer: "signed-in",
  run: (services, viewer, { body }) =>
    buyMembership(
      { db: services.db },
      viewer.id,
      { tier: body.tier, days: body.days as MembershipDays, autoRenew: body.auto_renew },
      services.idempotencyKey,
      services.now(),
    ),
  present: (result: MembershipPurchase) => ({
    membership: presentMembership(result.membership),
    price: result.price,
    balance: result.balance,
  }),
  response: z.strictObject({ membership: membershipAnswer, price: z.number().int(), balance: z.number().int() }),
  failures: ["insufficient_balance", "membership_other_tier", "idempotency_key_required", "idempotency_mismatch"],
});

export const membershipAutoRenewOperation = defineOperation({
  name: "membershipAutoRenew",
  input: { body: z.strictObject({ auto_renew: z.boolean() }) },
  viewer: "signed-in",
  run: (services, viewer, { body }) => setMembershipAutoRenew({ db: services.db }, viewer.id, body.auto_renew, services.now()),
  present: presentMembership,
  response: membershipAnswer,
  failures: ["not_found"],
});
