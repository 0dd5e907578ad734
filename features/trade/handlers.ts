import { onEvent } from "../events/bus.ts";
import { notify } from "../messages/notifications.ts";

/*
 * Every step of the task market is a system notice to whom it concerns (the event's recipients),
 * about the other party's profile (a task is not a subject of the registry).
 */
const verbs = [
  "trade.accepted",
  "trade.submitted",
  "trade.approved",
  "trade.rejected",
  "trade.disputed",
  "trade.refunded",
  "trade.dispute_decided",
] as const;

for (const verb of verbs) {
  onEvent(verb, {
    name: `trade.notify.${verb.slice("trade.".length)}`,
    inTransaction: (tx, event) => notify(tx, event, "system", { type: "user", id: event.subjectId }),
  });
}
