import { defineJob } from "../jobs/registry.ts";
import { closeMissionPeriods } from "./service.ts";

/**
 * The mission period reset, at Asia/Shanghai midnight (16:00 UTC; Monday's run ends the week too):
 * completed, unclaimed missions of finished periods become claimable grants for 7 days, older ones
 * expire. Idempotent: a retried or repeated run records and expires nothing twice.
 */
export const missionPeriodsJob = defineJob({
  name: "mission-periods",
  schedule: "0 16 * * *",
  retry: { limit: 5, delaySeconds: 60, backoff: true },
  async run({ db, log, now }) {
    const result = await closeMissionPeriods(db, now);
    if (result.recorded > 0 || result.expired > 0) log.info(result, "mission periods closed");
  },
});
