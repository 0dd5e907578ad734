import { defineJob } from "../jobs/registry.ts";
import { sendApprovedCashouts } from "./service.ts";

/**
 * Every minute, approved cashouts go out through their payout provider. A cashout whose earlier
 * transfer has no known outcome is queried first and sent again only under the same id if the
 * provider never saw it (`sendCashout`), so a retried or repeated run never pays twice.
 */
export const sendPayoutsJob = defineJob({
  name: "send-payouts",
  schedule: "* * * * *",
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  async run({ db, log }) {
    const finished = await sendApprovedCashouts(db, log);
    if (finished > 0) log.info({ finished }, "cashouts paid or failed");
  },
});
