import { onEvent } from "../events/bus.ts";
import { notify } from "../messages/notifications.ts";

/* What the expiry job did to a membership, and an admin's decision on an application, are system notices to the user, who did not act. */
for (const verb of ["membership.renewed", "membership.expired", "monetization.application_decided"] as const) {
  onEvent(verb, {
    name: `monetization.notify.${verb}`,
    inTransaction: (tx, event) =>
      notify(tx, { ...event, actorId: null }, "system", { type: "user", id: event.subjectId }, [event.subjectId]),
  });
}
