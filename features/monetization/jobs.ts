import { defineJob } from "../jobs/registry.ts";
import { processDueMemberships } from "./membership-service.ts";

/**
 * Every five minutes, memberships past their end are renewed (when their holder asked and the
 * purse covers the plan) or ended, the holder's type given back. `asOf` (an ISO time) runs it as
 * of another moment (tests). A repeated or retried run changes nothing twice.
 */
export const expireMembershipsJob = defineJob<{ asOf?: string }>({
  name: "expire-memberships",
  schedule: "*/5 * * * *",
  retry: { limit: 3, delaySeconds: 60, backoff: true },
  async run({ db, log, now, report }, data) {
    const asOf = data.asOf ? new Date(data.asOf) : now;
    if (Number.isNaN(asOf.getTime())) throw new Error(`expire-memberships: bad asOf ${data.asOf}`);
    const { renewed, expired } = await processDueMemberships(db, asOf);
    report(`renewed ${renewed}, expired ${expired}`);
    if (renewed + expired > 0) log.info({ renewed, expired }, "memberships renewed or ended");
  },
});
