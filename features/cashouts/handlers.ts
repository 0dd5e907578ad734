import { onEvent } from "../events/bus.ts";
import { notify } from "../messages/notifications.ts";

/* Every step of a cashout is a system notice to its owner, also the steps they took themself. */
const verbs = ["cashout.requested", "cashout.cancelled", "cashout.approved", "cashout.rejected", "cashout.paid", "cashout.failed"] as const;

for (const verb of verbs) {
  onEvent(verb, {
    name: `cashout.notify.${verb.slice("cashout.".length)}`,
    inTransaction: (tx, event) =>
      notify(tx, { ...event, actorId: null }, "system", { type: "user", id: event.subjectId }, [event.subjectId]),
  });
}
