import { z } from "zod";
import type { SubjectType } from "../subjects/types.ts";

/**
 * Every event the product records, by verb (the past tense of a domain verb), with the kind of
 * subject it is about and the zod schema of its `data`. `emit` checks both, so readers can rely on
 * the shape; a new event is one line here plus its `emit` call. Handlers (counters, notifications,
 * feeds, search, cache) subscribe by verb with `onEvent` (features/events/bus.ts).
 */
const none = z.object({}).strict();
const id = z.number().int().positive();

function event<Subject extends SubjectType | "any", Data extends z.ZodType<Record<string, unknown>>>(subject: Subject, data: Data) {
  return { subject, data };
}

/** An interaction that attaches to every kind of subject: the event names its kind (`subjectType`). */
const anySubject = "any" as const;

export const eventCatalogue = {
  "user.registered": event("user", z.object({ via: z.enum(["sms"]).optional() })),
  "user.password_changed": event("user", none),
  "user.password_reset": event("user", none),
  /** A sign-in from an address the account never signed in from (not the first one after sign-up): a system notice to its owner. */
  "user.signed_in_new_place": event("user", z.object({ ip: z.string() })),
  "user.profile_updated": event("user", z.object({ fields: z.array(z.string()) })),
  "user.avatar_changed": event("user", z.object({ fileId: z.string() })),
  "user.type_changed": event("user", z.object({ from: z.string(), to: z.string() })),
  "user.site_role_changed": event("user", z.object({ from: z.string(), to: z.string() })),
  /** Staff suspended the account until `until` (ISO), or lifted the suspension (`until` null). */
  "user.suspension_changed": event("user", z.object({ until: z.string().nullable() })),
  /** Staff reset a nickname or avatar that broke the rules: a system notice to the account's owner. */
  "user.profile_reset": event("user", z.object({ fields: z.array(z.enum(["nickname", "avatar"])) })),
  "user.checked_in": event("user", z.object({ day: z.string(), consecutiveDays: z.number().int(), reward: z.number().int() })),
  /** A missed day filled in with a make-up card (补签卡) from the shop. */
  "user.checkin_made_up": event("user", z.object({ day: z.string(), consecutiveDays: z.number().int(), cardId: z.number().int() })),
  /** A shop purchase (the subject is the buyer); `item` the item's code. */
  "user.shop_purchased": event("user", z.object({ item: z.string(), currency: z.string(), price: z.number().int() })),
  "user.followed": event("user", none),
  "user.unfollowed": event("user", none),
  "user.messages_read": event("user", z.object({ category: z.string() })),
  /** The subject is the blocked user. */
  "user.blocked": event("user", none),
  "user.unblocked": event("user", none),
  "user.message_preferences_changed": event("user", z.object({ muted: z.array(z.string()) })),
  /** A private message: the subject is its recipient (the text stays in the message, never in the event). */
  "chat.message_sent": event("user", z.object({ messageId: id, image: z.boolean() })),
  /** The actor read the subject's messages to them, up to `upToId`. */
  "chat.read": event("user", z.object({ upToId: id })),
  /** A site announcement; the subject is its author. */
  "announcement.published": event("user", z.object({ announcementId: id })),

  "circle.created": event("circle", z.object({ parentId: id, name: z.string(), visibility: z.string() })),
  "circle.updated": event("circle", z.object({ changed: z.array(z.string()), role: z.string().nullable() })),
  "circle.deleted": event("circle", z.object({ parentId: id.nullable(), nameZh: z.string(), nameEn: z.string().nullable() })),
  "circle.joined": event("circle", none),
  "circle.left": event("circle", z.object({ role: z.string() })),
  "circle.role_changed": event("circle", z.object({ userId: id, from: z.string(), to: z.string() })),
  "circle.member_removed": event("circle", z.object({ userId: id, role: z.string() })),
  "circle.category_created": event("circle", z.object({ categoryId: id, name: z.string(), parentId: id.nullable().optional() })),
  "circle.category_updated": event("circle", z.object({ categoryId: id, changed: z.array(z.string()), name: z.string() })),
  "circle.category_deleted": event("circle", z.object({ categoryId: id, name: z.string() })),
  "circle.pinned": event("circle", z.object({ type: z.string(), id })),
  "circle.unpinned": event("circle", z.object({ type: z.string(), id })),

  "writing.published": event(
    "writing",
    z.object({ circleId: id, type: z.string(), language: z.string(), translationOf: id.nullable(), seriesId: id.nullable() }),
  ),
  "writing.edited": event("writing", z.object({ version: z.number().int() })),
  "writing.deleted": event("writing", z.object({ circleId: id, authorId: id, title: z.string() })),

  "book.created": event("book", z.object({ circleId: id, name: z.string() })),
  "book.updated": event("book", z.object({ circleId: id, changed: z.array(z.string()) })),
  "book.completed": event("book", z.object({ circleId: id })),
  "book.resumed": event("book", z.object({ circleId: id })),
  "book.deleted": event("book", z.object({ circleId: id, name: z.string() })),
  "book.chapter_added": event("book", z.object({ chapterId: id, number: z.number().int(), title: z.string() })),
  "book.chapter_updated": event(
    "book",
    z.object({ chapterId: id, changed: z.array(z.string()), from: z.number().int(), to: z.number().int() }),
  ),
  "book.chapter_deleted": event("book", z.object({ chapterId: id, number: z.number().int(), title: z.string() })),

  "entry.created": event("entry", z.object({ circleId: id, name: z.string() })),
  "entry.edited": event("entry", z.object({ circleId: id, revisionId: id, number: z.number().int(), revertOf: id.nullable() })),
  "entry.deleted": event("entry", z.object({ circleId: id, creatorId: id, name: z.string() })),
  "entry.protection_changed": event("entry", z.object({ circleId: id, protected: z.boolean() })),

  "question.asked": event("question", z.object({ circleId: id, language: z.string() })),
  "question.edited": event("question", z.object({ version: z.number().int() })),
  "question.deleted": event("question", z.object({ circleId: id, authorId: id, title: z.string(), answers: z.number().int() })),
  "question.followed": event("question", none),
  "question.unfollowed": event("question", none),
  /** Recipients: the asker and the question's followers (the message centre's "answers to me"). */
  "answer.created": event("answer", z.object({ questionId: id, circleId: id })),
  "answer.edited": event("answer", z.object({ questionId: id, version: z.number().int() })),
  "answer.deleted": event("answer", z.object({ questionId: id, authorId: id })),
  /** Recipient: the answerer. */
  "answer.accepted": event("answer", z.object({ questionId: id })),
  "answer.unaccepted": event("answer", z.object({ questionId: id })),

  "reaction.added": event(anySubject, z.object({ reaction: z.enum(["like", "dislike"]) })),
  "reaction.changed": event(anySubject, z.object({ from: z.enum(["like", "dislike"]), to: z.enum(["like", "dislike"]) })),
  "reaction.removed": event(anySubject, z.object({ reaction: z.enum(["like", "dislike"]) })),

  "favorite.added": event(anySubject, z.object({ folderId: id })),
  "favorite.removed": event(anySubject, none),
  "subject.shared": event(anySubject, none),
  /** A tip (赞赏) on a writing, an answer or a book: told to its author; `amount` what the tipper paid. */
  "tip.received": event(
    anySubject,
    z.object({ tipId: id, amount: z.number().int().positive(), authorAmount: z.number().int(), authorId: id, source: z.literal("tips") }),
  ),

  // Money: every ledger posting (features/ledger/kinds.ts) has its event, emitted in the same
  // transaction, naming the subject, its author and the income source where there is one.
  /** A reader paid to read a writing's paid part (the actor); `authorId` earned `price`. */
  "unlock.purchased": event(
    "writing",
    z.object({ unlockId: id, price: z.number().int().positive(), authorId: id, source: z.literal("unlocks") }),
  ),
  /** A reader asks an unlock back; told to the writing's author, who decides. */
  "unlock.refund_requested": event("writing", z.object({ requestId: id, unlockId: id, authorId: id, reason: z.string() })),
  /** The author (or a moderator, the actor) kept the unlock; told to the reader. */
  "unlock.refund_rejected": event("writing", z.object({ requestId: id, unlockId: id, authorId: id, readerId: id })),
  /** An unlock paid back to `readerId` by `authorId` (the request approved by the actor); the author's profit shrinks by it. */
  "unlock.refunded": event(
    "writing",
    z.object({
      requestId: id,
      unlockId: id,
      amount: z.number().int().positive(),
      authorId: id,
      readerId: id,
      source: z.literal("unlocks"),
    }),
  ),
  "red_packet.funded": event(
    "writing",
    z.object({ redPacketId: id, total: z.number().int().positive(), shares: z.number().int(), authorId: id }),
  ),
  /** A reader's share: spendable money, never income. */
  "red_packet.claimed": event("writing", z.object({ redPacketId: id, amount: z.number().int().positive(), funderId: id })),
  /** The rest of a packet back to its funder (the subject): it expired or its writing was deleted. */
  "red_packet.refunded": event(
    "user",
    z.object({
      redPacketId: id,
      writingId: id.nullable(),
      amount: z.number().int().nonnegative(),
      reason: z.enum(["expired", "writing_deleted"]),
    }),
  ),
  /** The task market: the subject is the user told (the poster or the worker); `progressId` the slot. */
  "trade.mission_posted": event("user", z.object({ missionId: id, reward: z.number().int().positive(), slots: z.number().int() })),
  "trade.accepted": event("user", z.object({ missionId: id, progressId: id })),
  "trade.submitted": event("user", z.object({ missionId: id, progressId: id })),
  "trade.approved": event(
    "user",
    z.object({ missionId: id, progressId: id, amount: z.number().int().positive(), auto: z.boolean(), source: z.literal("missions") }),
  ),
  "trade.rejected": event("user", z.object({ missionId: id, progressId: id, reason: z.string() })),
  "trade.disputed": event("user", z.object({ missionId: id, progressId: id })),
  "trade.refunded": event(
    "user",
    z.object({ missionId: id, amount: z.number().int().positive(), reason: z.enum(["cancelled", "deadline", "rejected_after_close"]) }),
  ),
  /** A moderator decided a disputed rejection (told to its worker and the task's poster): the rejection stands or the worker is paid. */
  "trade.dispute_decided": event(
    "user",
    z.object({ missionId: id, progressId: id, decision: z.enum(["upheld", "overturned"]), note: z.string() }),
  ),
  /** A completed mission's reward paid to the subject, once per (mission, user, period). */
  "mission.claimed": event(
    "user",
    z.object({
      missionId: id,
      key: z.string(),
      periodStart: z.string(),
      currency: z.enum(["gold", "sinecoin"]),
      amount: z.number().int().positive(),
    }),
  ),
  /** A paid top-up order credited to the subject. */
  "topup.credited": event(
    "user",
    z.object({ orderId: z.string(), amount: z.number().int().positive(), method: z.string(), provider: z.string() }),
  ),
  /** Gold exchanged for sinecoin by the subject. */
  /** Income past its settlement window moved from pending to available (`recovered` of it paid a refund's debt first). */
  "income.settled": event(
    "user",
    z.object({ amount: z.number().int().positive(), recovered: z.number().int().nonnegative(), cutoff: z.string() }),
  ),
  /**
   * A cashout's steps, told to its owner (the subject): requested, cancelled by them, approved or
   * rejected by a site admin (with the reason), paid or failed at the provider (with its reason).
   */
  "cashout.requested": event("user", z.object({ cashoutId: z.string(), amount: z.number().int().positive(), netFen: z.number().int() })),
  "cashout.cancelled": event("user", z.object({ cashoutId: z.string(), amount: z.number().int().positive() })),
  "cashout.approved": event("user", z.object({ cashoutId: z.string(), amount: z.number().int().positive() })),
  "cashout.rejected": event("user", z.object({ cashoutId: z.string(), amount: z.number().int().positive(), reason: z.string() })),
  "cashout.paid": event("user", z.object({ cashoutId: z.string(), amount: z.number().int().positive(), netFen: z.number().int() })),
  "cashout.failed": event("user", z.object({ cashoutId: z.string(), amount: z.number().int().positive(), reason: z.string() })),
  /** A site admin approved or rejected the subject's creator application (`reason`: the rejection's, shown to them). */
  "monetization.application_decided": event("user", z.object({ status: z.enum(["approved", "rejected"]), reason: z.string().nullable() })),
  /** The subject bought a VIP or SVIP membership (`extended`: the tier they held, from its end). */
  "membership.purchased": event(
    "user",
    z.object({
      tier: z.enum(["vip", "svip"]),
      days: z.number().int().positive(),
      price: z.number().int().positive(),
      endsAt: z.string(),
      extended: z.boolean(),
    }),
  ),
  /** The expiry job renewed the subject's membership for its plan, as they asked. */
  "membership.renewed": event(
    "user",
    z.object({ tier: z.enum(["vip", "svip"]), days: z.number().int().positive(), price: z.number().int().positive(), endsAt: z.string() }),
  ),
  /** The subject's membership ended (`insufficient_balance`: renewal was on but the purse did not cover it). */
  "membership.expired": event("user", z.object({ tier: z.enum(["vip", "svip"]), reason: z.enum(["ended", "insufficient_balance"]) })),
  "gold.exchanged": event(
    "user",
    z.object({ gold: z.number().int().positive(), sinecoin: z.number().int().positive(), rate: z.number().int() }),
  ),

  /** Feedback sent to the site admins (the subject is the sender). */
  "feedback.sent": event("user", z.object({ feedbackId: id, category: z.string() })),
  /** An admin set a feedback's status (the subject is the sender, who is its recipient). */
  "feedback.status_changed": event("user", z.object({ feedbackId: id, from: z.string(), to: z.string() })),
  /** A friend link suggested for `/link` (the subject is the suggester). */
  "link.suggested": event("user", z.object({ linkId: id })),
  /** A site moderator approved or rejected a friend link (the subject is the reviewer). */
  "link.reviewed": event("user", z.object({ linkId: id, decision: z.enum(["approve", "reject"]) })),

  /** A report on any subject; no recipients (moderators read their queues), `caseId` the case it joined or opened. */
  "report.created": event(anySubject, z.object({ caseId: id, reason: z.string(), opened: z.boolean(), hidden: z.boolean() })),
  /** A moderator's decision on a case: told to its reporters and the subject's author (never the moderator). */
  "moderation.decided": event(
    anySubject,
    z.object({
      caseId: id,
      action: z.enum(["hide", "restore", "delete", "dismiss"]),
      note: z.string(),
      // Kept with the notice, so it still says what it was about once the subject is hidden or deleted.
      title: z.string().optional(),
      authorId: id.nullable().optional(),
    }),
  ),

  // Comments on any commentable kind: `subjectType`/`subjectId` name what is commented on (the event's subject is the comment).
  "comment.created": event(
    "comment",
    z.object({
      subjectType: z.string(),
      subjectId: id,
      subjectAuthorId: id.nullable().optional(),
      parentId: id.nullable(),
      replyToUserId: id.nullable(),
    }),
  ),
  "comment.edited": event("comment", z.object({ subjectType: z.string(), subjectId: id, parentId: id.nullable() })),
  "comment.deleted": event(
    "comment",
    z.object({
      subjectType: z.string(),
      subjectId: id,
      subjectAuthorId: id.nullable().optional(),
      authorId: id,
      parentId: id.nullable(),
      // Hidden by moderators when deleted: already out of its subject's comment count.
      hidden: z.boolean().optional(),
    }),
  ),
  /** `@username`s in a comment's text: the recipients are the mentioned users who may read the subject (never the actor). */
  "comment.mentioned": event("comment", z.object({ subjectType: z.string(), subjectId: id, parentId: id.nullable() })),
} as const;

export type EventVerb = keyof typeof eventCatalogue;
export type EventData<Verb extends EventVerb> = z.infer<(typeof eventCatalogue)[Verb]["data"]>;
export type EventSubjectType<Verb extends EventVerb> = (typeof eventCatalogue)[Verb]["subject"];

/** An event as it is emitted and as handlers receive it. */
export interface DomainEvent<Verb extends EventVerb = EventVerb> {
  verb: Verb;
  /** The recorded row's id, given to handlers (a notification names its cause by it: one per recipient and event). */
  id?: number;
  /** Who did it; null for the system (seeding, the admin command). */
  actorId: number | null;
  subjectId: number;
  /** The subject's kind, for events about any kind (the catalogue's `any`); others have theirs fixed in the catalogue. */
  subjectType?: SubjectType;
  data: EventData<Verb>;
  /** Whom it concerns (notified, counted). The actor is always left out: nobody is told of their own acts. */
  recipientIds?: number[];
}

export const eventVerbs = Object.keys(eventCatalogue) as EventVerb[];
