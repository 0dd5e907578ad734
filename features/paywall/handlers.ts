import { onEvent } from "../events/bus.ts";
import { notify } from "../messages/notifications.ts";

// Refund requests are system notices: the author learns of a request, the reader of its decision.
onEvent(["unlock.refund_requested", "unlock.refund_rejected", "unlock.refunded"], {
  name: "paywall.notify_refunds",
  inTransaction: (tx, event) => notify(tx, event, "system", { type: "writing", id: event.subjectId }),
});
