import { onEvent } from "../events/bus.ts";
import { notify } from "../messages/notifications.ts";

// A feedback's sender learns in the message centre's system notices when an admin changes its status
// (the notice is about the sender's own account; the feedback page shows the status and reply).
onEvent(["feedback.status_changed"], {
  name: "feedback.notify_status",
  inTransaction: (tx, event) => notify(tx, event, "system", { type: "user", id: event.subjectId }),
});
