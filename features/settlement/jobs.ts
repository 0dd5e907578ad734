import { defineJob } from "../jobs/registry.ts";
import { settleIncome } from "./service.ts";

/**
 * Every hour, income past its settlement window becomes available to cash out. `asOf` (an ISO
 * time) settles as of another moment: the admin command and tests use it to settle a window
 * without waiting for it. A repeated or retried run moves nothing twice (`settleIncome`).
 */
export const settleIncomeJob = defineJob<{ asOf?: string }>({
  name: "settle-income",
  schedule: "7 * * * *",
  retry: { limit: 3, delaySeconds: 60, backoff: true },
  async run({ db, log, now }, data) {
    const asOf = data.asOf ? new Date(data.asOf) : now;
    if (Number.isNaN(asOf.getTime())) throw new Error(`settle-income: bad asOf ${data.asOf}`);
    const settled = await settleIncome(db, asOf);
    if (settled > 0) log.info({ settled }, "income settled");
  },
});
