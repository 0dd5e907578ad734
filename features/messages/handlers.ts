import { onEvent } from "../events/bus.ts";
import { registerSubjectDependent } from "../subjects/registry.ts";
import { notify, notifyMention, removeNotificationsAbout, withdraw } from "./notifications.ts";

/**
 * The message centre's notifications, written in the transaction of the action that concerns the
 * recipient (the event's `recipientIds`, which never include the actor). An act taken back (a like,
 * a favourite, a follow) takes its notification back, so grouped lines and counters stay exact.
 */
onEvent("user.followed", {
  name: "messages.notify_follow",
  inTransaction: (tx, event) => notify(tx, event, "follow"),
});

onEvent("user.unfollowed", {
  name: "messages.withdraw_follow",
  inTransaction: (tx, event) =>
    event.actorId === null ? Promise.resolve() : withdraw(tx, event.actorId, "follow", { type: "user", id: event.subjectId }),
});

onEvent("comment.created", {
  name: "messages.notify_comment",
  // A top-level comment tells the subject's author, a reply the user it answers; the line is about the comment (its page is the comment in place).
  inTransaction: (tx, event) => notify(tx, event, event.data.parentId === null ? "comment" : "reply"),
});

onEvent("answer.created", {
  name: "messages.notify_answer",
  // A new answer: to the asker and the question's followers (the line is about the answer).
  inTransaction: (tx, event) => notify(tx, event, "answers"),
});

onEvent("answer.accepted", {
  name: "messages.notify_accepted",
  // The asker accepted an answer: a system notice to the answerer.
  inTransaction: (tx, event) => notify(tx, event, "system"),
});

onEvent("comment.mentioned", {
  name: "messages.notify_mention",
  // `@username` in a comment: the mentioned users who may read its subject (the event names only those), once per comment.
  inTransaction: (tx, event) => notifyMention(tx, event),
});

onEvent(["reaction.added", "reaction.changed"], {
  name: "messages.notify_like",
  async inTransaction(tx, event) {
    const about = { type: event.subjectType!, id: event.subjectId };
    const now = "reaction" in event.data ? event.data.reaction : event.data.to;
    // Likes are told (dislikes never are); a like turned into a dislike is taken back.
    if (now === "like") await notify(tx, event, "like", about);
    else if (event.actorId !== null) await withdraw(tx, event.actorId, "like", about);
  },
});

onEvent("reaction.removed", {
  name: "messages.withdraw_like",
  async inTransaction(tx, event) {
    if (event.actorId !== null && event.data.reaction === "like")
      await withdraw(tx, event.actorId, "like", { type: event.subjectType!, id: event.subjectId });
  },
});

onEvent("favorite.added", {
  name: "messages.notify_favorite",
  inTransaction: (tx, event) => notify(tx, event, "favorite"),
});

onEvent("favorite.removed", {
  name: "messages.withdraw_favorite",
  inTransaction: (tx, event) =>
    event.actorId === null ? Promise.resolve() : withdraw(tx, event.actorId, "favorite", { type: event.subjectType!, id: event.subjectId }),
});

onEvent(["user.password_changed", "user.password_reset", "user.signed_in_new_place", "user.profile_reset"], {
  name: "messages.notify_account",
  // An account event is a system notice to the account's owner, also when they did it themself.
  inTransaction: (tx, event) => notify(tx, { ...event, actorId: null }, "system", { type: "user", id: event.subjectId }, [event.subjectId]),
});

/** Deleting a subject takes the notifications about it along. */
registerSubjectDependent("notifications", (tx, type, ids) => removeNotificationsAbout(tx, type, ids));

onEvent("comment.deleted", {
  name: "messages.remove_comment_notifications",
  inTransaction: (tx, event) => removeNotificationsAbout(tx, "comment", [event.subjectId]),
});

onEvent("moderation.decided", {
  name: "messages.notify_moderation",
  // What was decided on a report: told to its reporters and the subject's author as a system notice.
  inTransaction: (tx, event) => notify(tx, event, "system"),
});
