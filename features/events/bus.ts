import { events } from "../../server/db/schema/index.ts";
import { countInstance } from "../../server/lib/single-instance.ts";
import type { Transaction } from "../../server/lib/transactions.ts";
import { assertRegistrationsComplete } from "../subjects/registry.ts";
import { eventCatalogue, type DomainEvent, type EventVerb } from "./catalogue.ts";

/**
 * Events with their handlers. A use case calls `emit(tx, event)` inside its transaction: the row is
 * written there, then every handler registered for the verb runs, either in the same transaction
 * (counters, notification rows, feed entries, so they commit or roll back with the change) or
 * after commit (live push, search indexing, anything slow or external). Handlers are registered
 * per domain in `features/<domain>/handlers.ts`, loaded by features/registrations.ts.
 */
countInstance("events/bus");

export interface EventHandler<Verb extends EventVerb> {
  /** A name for errors and tests: `messages.unread_follow`. */
  name: string;
  /** Runs inside the emitting transaction: a failure rolls the whole change back. */
  inTransaction?(tx: Transaction, event: DomainEvent<Verb>): Promise<void>;
  /** Runs once the change has committed; a failure is logged, never the user's error. */
  afterCommit?(event: DomainEvent<Verb>): unknown;
}

const handlers = new Map<EventVerb, EventHandler<EventVerb>[]>();

/** Subscribes a handler to one or more verbs. */
export function onEvent<Verb extends EventVerb>(verbs: Verb | Verb[], handler: EventHandler<Verb>): void {
  for (const verb of Array.isArray(verbs) ? verbs : [verbs]) {
    const list = handlers.get(verb) ?? [];
    if (list.some((existing) => existing.name === handler.name)) throw new Error(`event handler ${handler.name} registered twice`);
    list.push(handler as unknown as EventHandler<EventVerb>);
    handlers.set(verb, list);
  }
}

/** The names of the handlers of a verb, in the order they run (for tests and the architecture map). */
export function handlersOf(verb: EventVerb): string[] {
  return (handlers.get(verb) ?? []).map((handler) => handler.name);
}

/**
 * Records an event in the caller's transaction and runs its handlers. `data` is checked against
 * the catalogue (a wrong shape is a programming error and rolls the change back); recipients are
 * deduplicated and never include the actor. Answers the event's id.
 */
export async function emit<Verb extends EventVerb>(tx: Transaction, event: DomainEvent<Verb>): Promise<number> {
  assertRegistrationsComplete();
  const definition = eventCatalogue[event.verb];
  const data = definition.data.parse(event.data) as DomainEvent<Verb>["data"];
  const recipientIds = [...new Set(event.recipientIds ?? [])].filter((id) => id !== event.actorId);
  const subjectType = definition.subject === "any" ? event.subjectType : definition.subject;
  if (!subjectType || (definition.subject !== "any" && event.subjectType && event.subjectType !== definition.subject)) {
    throw new Error(`event ${event.verb} needs the subject kind ${definition.subject}, got ${event.subjectType ?? "none"}`);
  }
  const [row] = await tx.db
    .insert(events)
    .values({
      actorId: event.actorId,
      verb: event.verb,
      subjectType,
      subjectId: event.subjectId,
      data,
      recipientIds,
    })
    .returning({ id: events.id });
  const emitted: DomainEvent<Verb> = { ...event, id: row!.id, subjectType, data, recipientIds };
  for (const handler of handlers.get(event.verb) ?? []) {
    if (handler.inTransaction) await handler.inTransaction(tx, emitted);
    const after = handler.afterCommit;
    if (after) tx.afterCommit(() => after(emitted));
  }
  return row!.id;
}
