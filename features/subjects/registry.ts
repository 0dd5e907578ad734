import type { SQL } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import type { Transaction } from "../../server/lib/transactions.ts";
import { countInstance } from "../../server/lib/single-instance.ts";
import { AppError } from "../../common/app-error.ts";
import type { Viewer } from "../accounts/viewer.ts";
import type { CircleAccess } from "../circles/policy.ts";
import type { FeedMember } from "../feeds/registry.ts";
import type { SearchMember } from "../search/registry.ts";
import type { CreatorDeskMember } from "../creator/content.ts";
import type { ViewsMember } from "../metrics/views.ts";
import type { HotMember } from "./hot.ts";
import type { CircleContentMember } from "../circles/counts.ts";
import type { CircleTabMember } from "./circle-tab.ts";
import type { SitemapMember } from "./sitemap.ts";
import type { ActivityMember } from "../profiles/activity.ts";
import { isSubjectType, type SubjectType } from "./types.ts";

/**
 * The subject registry: every kind of content registers, once, everything the features that
 * attach to any subject need (comments, reactions, favourites, shares, reports, notifications,
 * circle counts, search, feeds, the creator's desk, tips and pins), so none of them ever reads a
 * kind's table directly or keeps its own list of kinds, and a new kind gets all of them by
 * registering. Registration files are `features/<domain>/subject.ts` (their larger members in
 * sibling files of the same folder: `feed.ts`, `search.ts`, `creator.ts`), loaded by
 * `features/registrations.ts` (the server and the test set-up import it). The members' shapes are
 * declared by the features that read them (types only: this file imports no domain).
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
  /**
   * Its author's id as SQL, for the SQL function `subject_author_id` (features/subjects/author-sql.ts):
   * a scalar query of the subject whose id is the SQL parameter named `id`. Kinds nobody owns (a circle) leave it out.
   */
  authorSql?(id: string): string;
  /** Its share of a circle's content counts (the circle page and the tree show them): its count names and how many per circle (features/circles/counts.ts). */
  circleContent?: CircleContentMember;
  /** Its tabs on a circle's page, each with its list (features/subjects/circle-tab.ts; drawn by app/components/circle-tabs/). */
  circleTabs?: CircleTabMember[];
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
  /** The home feeds: how to find its newest or hottest items and show them as cards (features/feeds). */
  feed?: FeedMember;
  /** The search index: how to read it as search documents and which events change them (features/search). */
  search?: SearchMember;
  /** The creator's desk: its rows in the author's content list and how the author deletes one (features/creator). */
  creatorDesk?: CreatorDeskMember;
  /**
   * Its author's subjects of this kind, for the comments on them on the creator's desk: a SELECT of
   * `id` (integer) and `title` (text). Every commentable kind with an author declares it.
   */
  authoredBy?(authorId: number): SQL;
  /** Its page counts views and reads (the one beacon route, `subject_views`): how a counted view raises its stored count (features/metrics). */
  views?: ViewsMember;
  /** Its lines on its author's public activity tab (features/profiles/activity.ts). */
  activity?: ActivityMember;
  /** Its section of the sitemap (app/lib/sitemap.server.ts renders it; features/subjects/sitemap.ts). */
  sitemap?: SitemapMember;
  /** Its Hot inputs (features/subjects/hot.ts): what an interaction on it scores again, and its part of the hourly recompute. */
  hot?: HotMember;
  /** What readers may do to it besides comments (the action bar shows exactly these). */
  interactions?: SubjectInteractions;
  /** Its text may cite encyclopedia entries (`entry_citations`): moderation hiding or restoring it refreshes the cited entries' counts (features/encyclopedia/handlers.ts). */
  citesEntries?: boolean;
}

/**
 * The interactions a kind accepts: their services refuse (`not_found`) every other kind, and the
 * action bar shows exactly these (through `interactionSummary`, features/reactions/viewer-state.ts).
 */
export interface SubjectInteractions {
  /** Like and dislike (赞同 / 反对, features/reactions). */
  reactions?: boolean;
  /** Readers may keep it in their favourites (收藏, features/favorites). */
  favorites?: boolean;
  /** Shares are counted (features/shares). */
  shares?: boolean;
  /** Readers may report it to moderators (举报, features/reports); only a kind with `setHidden` can declare it. */
  reports?: boolean;
  /** Readers may tip its author (赞赏); `tipsSwitchedOn` answers for one subject when its author may turn tips off. */
  tips?: boolean;
  tipsSwitchedOn?(db: Executor, id: number): Promise<boolean>;
  /** A circle's moderators may pin it to the top of the circle's page. */
  pins?: boolean;
}

/** What hangs on any subject (comments, reactions…) and goes when it is deleted. */
export type SubjectDependent = (tx: Transaction, type: SubjectType, ids: number[]) => Promise<void>;

const kinds = new Map<SubjectType, SubjectKind>();
const dependents: { name: string; remove: SubjectDependent }[] = [];
const completions: (() => void)[] = [];
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
  for (const completion of completions.splice(0)) completion();
}

/**
 * Runs `wire` once every kind is registered (at once when they already are): for what a feature
 * derives from the registrations at start-up, such as the events that re-index each kind.
 */
export function whenRegistrationsComplete(wire: () => void): void {
  if (complete) wire();
  else completions.push(wire);
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

/** The kinds that declare `member`, in registration order. */
export function kindsWith<Member extends keyof SubjectKind>(member: Member): (SubjectKind & Required<Pick<SubjectKind, Member>>)[] {
  return registeredKinds().filter((kind): kind is SubjectKind & Required<Pick<SubjectKind, Member>> => kind[member] !== undefined);
}

/** The interactions a kind may declare (`SubjectInteractions`). */
export type Interaction = "reactions" | "favorites" | "shares" | "reports" | "tips" | "pins";

/** Whether a registered kind accepts an interaction (an unknown name does not). */
export function acceptsInteraction(type: string, interaction: Interaction): type is SubjectType {
  return isSubjectType(type) && subjectKind(type).interactions?.[interaction] === true;
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
