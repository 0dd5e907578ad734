import { defineJob } from "../jobs/registry.ts";
import { autoApproveStale, closeTasksAtDeadline } from "./escrow.ts";

/**
 * Task market deadlines, every minute: tasks past their deadline close and refund their untaken
 * slots, and submissions unreviewed for 72 hours are approved. Both take only rows still in the
 * state they change (under row locks), so a repeated or retried run moves no money twice.
 */
export const tradeDeadlinesJob = defineJob({
  name: "trade-deadlines",
  schedule: "* * * * *",
  retry: { limit: 2, delaySeconds: 10, backoff: true },
  async run({ db, log, now }) {
    const closed = await closeTasksAtDeadline(db, now);
    if (closed > 0) log.info({ closed }, "tasks closed at their deadline");
  },
});

export const tradeAutoApproveJob = defineJob({
  name: "trade-auto-approve",
  schedule: "*/5 * * * *",
  retry: { limit: 2, delaySeconds: 10, backoff: true },
  async run({ db, log, now }) {
    const approved = await autoApproveStale(db, now);
    if (approved > 0) log.info({ approved }, "submissions approved after 72 hours");
  },
});
