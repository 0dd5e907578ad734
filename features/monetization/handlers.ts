import { onEvent } from "../events/bus.ts";
import { notify } from "../messages/notifications.ts";

/* What the expiry job did to a membership is a system notice to its holder, who did not act. */
for (const verb of ["membership.renewed", "membership.expired"] as const) {
  onEvent(verb, {
    name: `membership.notify.${verb.slice("membership.".length)}`,
    inTransaction: (tx, event) =>
      notify(tx, { ...event, actorId: null }, "system", { type: "user", id: event.subjectId }, [event.subjectId]),
  });
}
