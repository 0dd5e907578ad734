import { onEvent } from "../events/bus.ts";
import { isSubjectType } from "../subjects/types.ts";
import { bumpSubjectCounter } from "../subjects/counters.ts";

/**
 * A subject's comment count (`subject_counts.comment_count`: comments and replies that are not
 * deleted or hidden), for every commentable kind, moved in the transaction of the comment's creation or
 * deletion. Its row also carries the subject's author, which is how the creator's desk finds the
 * comments on a user's content (`listCommentsOnContentOf`).
 */
onEvent(["comment.created", "comment.deleted"], {
  name: "comments.subject_comment_count",
  async inTransaction(tx, event) {
    const { subjectType, subjectId, subjectAuthorId } = event.data;
    if (!isSubjectType(subjectType)) return;
    // A hidden comment left the count when it was hidden (its subject.ts setHidden).
    if ("hidden" in event.data && event.data.hidden) return;
    const subject = { type: subjectType, id: subjectId, authorId: subjectAuthorId ?? null };
    await bumpSubjectCounter(tx, subject, "commentCount", event.verb === "comment.created" ? 1 : -1);
  },
});
