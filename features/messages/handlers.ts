import { onEvent } from "../events/bus.ts";
import { bumpUnread } from "./service.ts";

/**
 * The message centre's unread counters, raised in the transaction of the action that concerns
 * the recipient (the event's `recipientIds`, which never include the actor).
 */
onEvent("user.followed", {
  name: "messages.unread_follow",
  async inTransaction(tx, event) {
    for (const userId of event.recipientIds ?? []) await bumpUnread(tx, userId, "unread_follow_count");
  },
});

onEvent("comment.created", {
  name: "messages.unread_comment",
  async inTransaction(tx, event) {
    // A top-level comment tells the subject's author; a reply tells the user it answers.
    const counter = event.data.parentId === null ? "unread_comment_count" : "unread_replies";
    for (const userId of event.recipientIds ?? []) await bumpUnread(tx, userId, counter);
  },
});
