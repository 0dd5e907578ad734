import { z } from "zod";
import { authorize } from "../../common/policy.ts";
import { defineOperation } from "../../server/lib/operation.ts";
import { can } from "./policy.ts";
import { checkIn, getCheckinStatus, type CheckinResult, type CheckinStatus } from "./service.ts";

/* The daily check-in: the API (features/checkins/api.ts) and the check-in card of the personal centre (app/routes/account-home.tsx). */

export const checkinStatusSchema = z.strictObject({
  checked_in_today: z.boolean(),
  consecutive_days: z.number(),
  total_days: z.number(),
  reward: z.number(),
});

export const checkinResultSchema = z.strictObject({
  consecutive_days: z.number(),
  total_days: z.number(),
  gold: z.number(),
  reward: z.number(),
});
export type PresentedCheckin = z.infer<typeof checkinResultSchema>;

/** Today's state of the check-in card. */
export const checkinStatusOperation = defineOperation({
  name: "checkinStatus",
  input: {},
  viewer: "signed-in",
  run: (services, viewer) => {
    authorize(viewer, can(viewer, "check_in"));
    return getCheckinStatus(services.db, viewer.id, services.now());
  },
  present: (status: CheckinStatus) => ({
    checked_in_today: status.checkedInToday,
    consecutive_days: status.consecutiveDays,
    total_days: status.totalDays,
    reward: status.reward,
  }),
  response: checkinStatusSchema,
  failures: [],
});

/** Checks in for today; the second time in a day is 409 `already_checked_in`. */
export const checkInOperation = defineOperation({
  name: "checkIn",
  input: { body: z.strictObject({}).nullish() },
  viewer: "signed-in",
  run: (services, viewer) => {
    authorize(viewer, can(viewer, "check_in"));
    return checkIn({ db: services.db }, viewer.id, services.now());
  },
  present: (result: CheckinResult): PresentedCheckin => ({
    consecutive_days: result.consecutiveDays,
    total_days: result.totalDays,
    gold: result.gold,
    reward: result.reward,
  }),
  response: checkinResultSchema,
  failures: ["already_checked_in"],
  unexpected: "checkin_failed",
});
