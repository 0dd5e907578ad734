import type { ReactNode } from "react";
import { useFetcher } from "react-router";
import type { InteractionSummary } from "../../features/reactions/viewer-state.ts";

type Reaction = "like" | "dislike";
export type ReactionState = Pick<InteractionSummary, "reaction" | "like_count" | "dislike_count">;

/** The state shown while a press is on its way: the toggle applied to what was last confirmed. */
export function optimisticReaction(confirmed: ReactionState, wanted: Reaction | "none"): ReactionState {
  const next: ReactionState = { ...confirmed, reaction: wanted === "none" ? null : wanted };
  const delta = (kind: Reaction) => (next.reaction === kind ? 1 : 0) - (confirmed.reaction === kind ? 1 : 0);
  next.like_count = Math.max(0, confirmed.like_count + delta("like"));
  if (confirmed.dislike_count !== undefined) next.dislike_count = Math.max(0, confirmed.dislike_count + delta("dislike"));
  return next;
}

/**
 * A reaction form's fetcher and what it shows: the press on its way applied at once to what the
 * server last confirmed, and the server's message once a refused press has rolled back.
 */
export function useReaction(initial: ReactionState) {
  const fetcher = useFetcher<{ state?: ReactionState; error?: string }>();
  const confirmed = fetcher.data?.state ?? initial;
  const pending = fetcher.formData?.get("reaction");
  const shown = pending === "like" || pending === "dislike" || pending === "none" ? optimisticReaction(confirmed, pending) : confirmed;
  const error = fetcher.state === "idle" ? fetcher.data?.error : undefined;
  return { fetcher, shown, error };
}

/** Like and dislike as the two submit buttons of a reaction form: each toggles, pressing the other switches. */
export function ReactionButtons({
  shown,
  like,
  dislike,
  className,
  testIdPrefix = "",
}: {
  shown: ReactionState;
  like: ReactNode;
  dislike: ReactNode;
  className: string;
  /** Prefixes the buttons' `data-testid` (`like`, `dislike`). */
  testIdPrefix?: string;
}) {
  return (
    <>
      <button
        type="submit"
        name="reaction"
        value={shown.reaction === "like" ? "none" : "like"}
        className={className}
        aria-pressed={shown.reaction === "like"}
        data-testid={`${testIdPrefix}like`}
      >
        {like}
      </button>
      <button
        type="submit"
        name="reaction"
        value={shown.reaction === "dislike" ? "none" : "dislike"}
        className={className}
        aria-pressed={shown.reaction === "dislike"}
        data-testid={`${testIdPrefix}dislike`}
      >
        {dislike}
      </button>
    </>
  );
}
