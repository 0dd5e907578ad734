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
  "user.profile_updated": event("user", z.object({ fields: z.array(z.string()) })),
  "user.avatar_changed": event("user", z.object({ fileId: z.string() })),
  "user.type_changed": event("user", z.object({ from: z.string(), to: z.string() })),
  "user.checked_in": event("user", z.object({ day: z.string(), consecutiveDays: z.number().int(), reward: z.number().int() })),
  "user.followed": event("user", none),
  "user.unfollowed": event("user", none),
  "user.messages_read": event("user", z.object({ category: z.string() })),

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

  "reaction.added": event(anySubject, z.object({ reaction: z.enum(["like", "dislike"]) })),
  "reaction.changed": event(anySubject, z.object({ from: z.enum(["like", "dislike"]), to: z.enum(["like", "dislike"]) })),
  "reaction.removed": event(anySubject, z.object({ reaction: z.enum(["like", "dislike"]) })),

  "favorite.added": event(anySubject, z.object({ folderId: id })),
  "favorite.removed": event(anySubject, none),
  "subject.shared": event(anySubject, none),

  "comment.created": event(
    "comment",
    z.object({ subjectType: z.string(), subjectId: id, parentId: id.nullable(), replyToUserId: id.nullable() }),
  ),
  "comment.deleted": event("comment", z.object({ subjectType: z.string(), subjectId: id, authorId: id, parentId: id.nullable() })),
} as const;

export type EventVerb = keyof typeof eventCatalogue;
export type EventData<Verb extends EventVerb> = z.infer<(typeof eventCatalogue)[Verb]["data"]>;
export type EventSubjectType<Verb extends EventVerb> = (typeof eventCatalogue)[Verb]["subject"];

/** An event as it is emitted and as handlers receive it. */
export interface DomainEvent<Verb extends EventVerb = EventVerb> {
  verb: Verb;
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
