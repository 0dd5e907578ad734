import { onEvent } from "../events/bus.ts";
import { notify } from "../messages/notifications.ts";

onEvent("tip.received", {
  name: "tips.notify_author",
  // A tip is a system notice to the author about what was tipped.
  inTransaction: (tx, event) => notify(tx, event, "system", { type: event.subjectType!, id: event.subjectId }),
});
