import { defineJob } from "../jobs/registry.ts";
import { expireOrders } from "./service.ts";
import { expireRedPackets } from "../red-packets/service.ts";

/**
 * Every minute, open top-up orders past their 15 minutes are asked of their provider (a payment
 * whose notify was lost is credited) and the rest become expired, and expired red packets return
 * what is left to their funders. Both updates only touch what is still open, so a repeated or
 * retried run changes nothing twice.
 */
export const expirePaymentsJob = defineJob({
  name: "expire-payments",
  schedule: "* * * * *",
  retry: { limit: 2, delaySeconds: 10, backoff: true },
  async run({ db, log, now }) {
    const expired = await expireOrders(db, now, (message, details) => log.warn(details, message));
    if (expired > 0) log.info({ expired }, "top-up orders expired");
    const returned = await expireRedPackets(db, now);
    if (returned > 0) log.info({ returned }, "expired red packets returned to their funders");
  },
});
