import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { moderationCases, reactions, subjectCounts, type ReactionKind } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { inTransaction, type ServiceOptions, type Transaction } from "../../server/lib/transactions.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { emit } from "../events/bus.ts";
import { acceptsInteraction, loadSubject, type LoadedSubject } from "../subjects/registry.ts";
import { bumpSubjectCounter } from "../subjects/counters.ts";
import { canReact, seesDislikes } from "./policy.ts";
import { viewerReactionsTag } from "./viewer-state.ts";
import { assertDailyAllowance } from "../trust/limits.ts";
import { judgeAction } from "../trust/verdicts.ts";

/** What the API answers and the action bar shows after a change. */
export interface ReactionState {
  reaction: ReactionKind | null;
  likeCount: number;
  /** Only for the subject's author. */
  dislikeCount?: number;
}

/** Moves the counter of one reaction kind. */
function bump(tx: Transaction, subject: LoadedSubject, kind: ReactionKind, delta: 1 | -1): Promise<void> {
  return bumpSubjectCounter(tx, subject, kind === "like" ? "likeCount" : "dislikeCount", delta);
}

async function loadForReaction(db: Executor, viewer: Viewer, type: string, id: number): Promise<LoadedSubject> {
  if (!acceptsInteraction(type, "reactions")) throw new AppError("not_found");
  const subject = await loadSubject(db, viewer, type, id);
  if (!canReact(viewer, subject)) throw new AppError("forbidden");
  return subject;
}

async function stateOf(db: Executor, viewer: Viewer, subject: LoadedSubject): Promise<ReactionState> {
  const [counts] = await db
    .select({ likeCount: subjectCounts.likeCount, dislikeCount: subjectCounts.dislikeCount })
    .from(subjectCounts)
    .where(and(eq(subjectCounts.subjectType, subject.type), eq(subjectCounts.subjectId, subject.id)));
  const [mine] = await db
    .select({ kind: reactions.kind })
    .from(reactions)
    .where(and(eq(reactions.userId, viewer.id), eq(reactions.subjectType, subject.type), eq(reactions.subjectId, subject.id)));
  const state: ReactionState = { reaction: mine?.kind ?? null, likeCount: counts?.likeCount ?? 0 };
  if (seesDislikes(viewer, subject)) state.dislikeCount = counts?.dislikeCount ?? 0;
  return state;
}

/** Likes are told to the author (their notifications); dislikes never are. */
function recipientsOf(subject: LoadedSubject, reaction: ReactionKind): number[] {
  return reaction === "like" && subject.authorId !== null ? [subject.authorId] : [];
}

/**
 * Sets the viewer's reaction to a subject (like and dislike exclude each other). The primary key
 * makes twenty simultaneous likes by one user one row; only the request that inserts or changes the
 * row moves the counters, in the same transaction, so counts stay exact under any concurrency.
 * Errors: `not_found` (unknown or unreadable subject), `forbidden`.
 */
export async function setReaction(
  options: ServiceOptions,
  viewer: Viewer,
  type: string,
  id: number,
  reaction: ReactionKind,
): Promise<ReactionState> {
  return inTransaction(options, async (tx) => {
    const subject = await loadForReaction(tx.db, viewer, type, id);
    const key = { userId: viewer.id, subjectType: subject.type, subjectId: subject.id };
    await assertDailyAllowance(tx.db, viewer.id, "like");
    const [inserted] = await tx.db
      .insert(reactions)
      .values({ ...key, kind: reaction })
      .onConflictDoNothing()
      .returning({ kind: reactions.kind });
    if (inserted) {
      await bump(tx, subject, reaction, 1);
      if (reaction === "like") {
        await judgeAction(tx.db, {
          action: "like",
          actorId: viewer.id,
          receiverId: subject.authorId,
          subjectType: subject.type,
          subjectId: subject.id,
        });
      }
      await emit(tx, {
        verb: "reaction.added",
        actorId: viewer.id,
        subjectType: subject.type,
        subjectId: subject.id,
        data: { reaction },
        recipientIds: recipientsOf(subject, reaction),
      });
      tx.invalidate(...subject.tags.counts, viewerReactionsTag(viewer.id));
    } else {
      // Only the other reaction can be replaced; the row lock makes a concurrent change wait and re-check.
      const [changed] = await tx.db
        .update(reactions)
        .set({ kind: reaction, createdAt: new Date() })
        .where(
          and(
            eq(reactions.userId, viewer.id),
            eq(reactions.subjectType, subject.type),
            eq(reactions.subjectId, subject.id),
            sql`${reactions.kind} <> ${reaction}`,
          ),
        )
        .returning({ kind: reactions.kind });
      if (changed) {
        const from: ReactionKind = reaction === "like" ? "dislike" : "like";
        await bump(tx, subject, from, -1);
        await bump(tx, subject, reaction, 1);
        await emit(tx, {
          verb: "reaction.changed",
          actorId: viewer.id,
          subjectType: subject.type,
          subjectId: subject.id,
          data: { from, to: reaction },
          recipientIds: recipientsOf(subject, reaction),
        });
        tx.invalidate(...subject.tags.counts, viewerReactionsTag(viewer.id));
      }
    }
    return stateOf(tx.db, viewer, subject);
  });
}

/** Takes the viewer's reaction back (a no-op without one). Errors as `setReaction`. */
export async function removeReaction(options: ServiceOptions, viewer: Viewer, type: string, id: number): Promise<ReactionState> {
  return inTransaction(options, async (tx) => {
    const subject = await loadForReaction(tx.db, viewer, type, id);
    const [removed] = await tx.db
      .delete(reactions)
      .where(and(eq(reactions.userId, viewer.id), eq(reactions.subjectType, subject.type), eq(reactions.subjectId, subject.id)))
      .returning({ kind: reactions.kind });
    if (removed) {
      await bump(tx, subject, removed.kind, -1);
      await emit(tx, {
        verb: "reaction.removed",
        actorId: viewer.id,
        subjectType: subject.type,
        subjectId: subject.id,
        data: { reaction: removed.kind },
      });
      tx.invalidate(...subject.tags.counts, viewerReactionsTag(viewer.id));
    }
    return stateOf(tx.db, viewer, subject);
  });
}

/** The likes a user's work has received, over every kind (the profile's count, spec §3). */
export async function receivedLikes(db: Executor, userId: number): Promise<number> {
  // Content that moderation hides now (its latest case says so) counts for nobody.
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${subjectCounts.likeCount}), 0)::int` })
    .from(subjectCounts)
    .where(
      and(
        eq(subjectCounts.authorId, userId),
        sql`not coalesce((
          select ${moderationCases.hidden} from ${moderationCases}
          where ${moderationCases.subjectType} = ${subjectCounts.subjectType} and ${moderationCases.subjectId} = ${subjectCounts.subjectId}
          order by ${moderationCases.createdAt} desc, ${moderationCases.id} desc
          limit 1
        ), false)`,
      ),
    );
  return row?.total ?? 0;
}
