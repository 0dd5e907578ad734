import type { SQL } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import type { Transaction } from "../../server/lib/transactions.ts";
import { countInstance } from "../../server/lib/single-instance.ts";
import { AppError } from "../../common/app-error.ts";
import type { Viewer } from "../accounts/viewer.ts";
import type { CircleAccess } from "../circles/policy.ts";
import type { CircleContentKind } from "../circles/counts.ts";
import { isSubjectType, type SubjectType } from "./types.ts";

/**
 * The subject registry: every kind of content registers, once, what the features that attach to
 * any subject need (comments now; reactions, favourites, shares, reports, notifications, search
 * and feeds next), so none of them ever reads a kind's table directly and a new kind gets all of
 * them by registering. Registration files are `features/<domain>/subject.ts`, loaded by
 * `features/registrations.ts` (the server and the test set-up import it).
 */
countInstance("subjects/registry");

/** A subject as the viewer may see it. */
export interface LoadedSubject {
  type: SubjectType;
  id: number;
  /** Who wrote it (a user is their own author); null when nobody owns it (a circle). */
  authorId: number | null;
  /** The viewer's standing in the circle it lives in; null for what lives outside circles (users). */
  access: CircleAccess | null;
  /** A short human title: the writing's title, a book's name, a comment's first words, a nickname. */
  title: string;
  /** Its page, without the /en prefix (`localizePath` adds it). */
  path: string;
  /** What it belongs to, when it is part of another subject (a comment: what it comments on), so a notice can name it. */
  parent?: { type: string; id: number };
  /** The cache tags of the pages that show it, by what changes (server/lib/cache-tags.ts). */
  tags: { content: string[]; counts: string[]; comments: string[] };
  /** When its author last edited it (null: never since published); a decided report case reopens only after an edit. */
  editedAt?: Date | null;
  /** Set while moderation hides it (then only its author and moderators load it). */
  hiddenAt?: Date | null;
}

/** A kind's registration. Only `type` and `load` are required. */
export interface SubjectKind {
  type: SubjectType;
  /**
   * The subject for this viewer, with its own pages' visibility: `not_found` when it does not
   * exist or the viewer may not read it (a hidden circle's content answers like an unknown id),
   * `not_authenticated` for a visitor who may see the circle but not read its content.
   */
  load(db: Executor, viewer: Viewer | null, id: number): Promise<LoadedSubject>;
  /** Its share of a circle's content counts (the circle page's tabs, the tree), per circle id. */
  countCircleContent?(db: Executor, circleIds: number[]): Promise<Map<number, Partial<Record<CircleContentKind, number>>>>;
  /** Whether anything of this kind is filed under the circle category (then it cannot be deleted). */
  usesCategory?(db: Executor, categoryId: number): Promise<boolean>;
  /** A condition true when this kind still uses the uploaded file `fileId` (the orphan sweep keeps it). */
  referencesAttachment?(fileId: SQL): SQL;
  /** Readers may comment on it (features/comments: `GET/POST /api/subjects/{type}/{id}/comments/`). */
  commentable?: boolean;
  /** The subjects deleted with these (a book's chapters), so what hangs on them goes too. */
  children?(tx: Transaction, ids: number[]): Promise<{ type: SubjectType; ids: number[] }[]>;
  /**
   * Moderation: hides (a time) or shows again (null) one subject, in the caller's transaction, and
   * answers the cache tags to drop (its pages and the lists that show it). Kinds without it cannot
   * be hidden (a circle).
   */
  setHidden?(tx: Transaction, id: number, hiddenAt: Date | null): Promise<string[]>;
  /**
   * Moderation: deletes one subject by its kind's own delete path (dependents and its event
   * included, `actorId` the moderator), in the caller's transaction. Kinds without it cannot be
   * deleted by moderators (a user, an entry).
   */
  remove?(tx: Transaction, id: number, actorId: number): Promise<void>;
}

/** What hangs on any subject (comments, reactions…) and goes when it is deleted. */
export type SubjectDependent = (tx: Transaction, type: SubjectType, ids: number[]) => Promise<void>;

const kinds = new Map<SubjectType, SubjectKind>();
const dependents: { name: string; remove: SubjectDependent }[] = [];
let complete = false;

export function registerSubject(kind: SubjectKind): void {
  if (kinds.has(kind.type)) throw new Error(`subject kind ${kind.type} registered twice`);
  kinds.set(kind.type, kind);
}

/** Registers what hangs on subjects of every kind and must be deleted with them. */
export function registerSubjectDependent(name: string, remove: SubjectDependent): void {
  if (dependents.some((dependent) => dependent.name === name)) throw new Error(`subject dependent ${name} registered twice`);
  dependents.push({ name, remove });
}

/** Called once by features/registrations.ts after every kind and handler is registered. */
export function completeRegistrations(): void {
  complete = true;
}

/** Throws when the registrations were never loaded: a missing counter or cascade must fail loudly, not silently. */
export function assertRegistrationsComplete(): void {
  if (!complete) throw new Error("features/registrations.ts was not loaded: subjects and event handlers are unregistered");
}

export function registeredKinds(): SubjectKind[] {
  assertRegistrationsComplete();
  return [...kinds.values()];
}

export function subjectKind(type: SubjectType): SubjectKind {
  assertRegistrationsComplete();
  const kind = kinds.get(type);
  if (!kind) throw new Error(`subject kind ${type} is not registered`);
  return kind;
}

/** Whether a registered kind takes comments (an unknown name does not). */
export function isCommentable(type: string): type is SubjectType {
  return isSubjectType(type) && subjectKind(type).commentable === true;
}

/** A subject by type name and id as the API receives them: an unknown type is a 404 like an unknown id. */
export async function loadSubject(db: Executor, viewer: Viewer | null, type: string, id: number): Promise<LoadedSubject> {
  if (!isSubjectType(type)) throw new AppError("not_found");
  return subjectKind(type).load(db, viewer, id);
}

/**
 * Deletes what hangs on subjects being deleted, inside their deletion's transaction: every
 * registered dependent for them and, through `children`, for what is deleted with them.
 */
export async function deleteSubjectDependents(tx: Transaction, type: SubjectType, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const kind = subjectKind(type);
  for (const child of (await kind.children?.(tx, ids)) ?? []) await deleteSubjectDependents(tx, child.type, child.ids);
  for (const dependent of dependents) await dependent.remove(tx, type, ids);
}
