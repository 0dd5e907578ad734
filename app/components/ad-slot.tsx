import { lazy, Suspense, useEffect, useState } from "react";

/*
 * The ad slot the reading pages and the home feed carry: it asks for an ad after the page loaded and
 * loads the card (app/components/ad-card.tsx) only when there is one, so a page without an ad
 * carries a few hundred bytes for it within its JavaScript budget.
 */
const ServedAd = lazy(() => import("./ad-card.tsx").then((module) => ({ default: module.ServedAd })));

export type { AdCardContent } from "./ad-card.tsx";

export interface AdSlotProps {
  placement: "article" | "question" | "entry" | "feed";
  circleId?: number | null;
  subject?: { type: "writing" | "question" | "entry"; id: number } | null;
  /** An item of a list (between the home feed's cards) or a block. */
  as?: "div" | "li";
}

/**
 * An ad slot: asked for after the page loaded (`/api/ads/slot/`), so the page itself stays the same
 * for every visitor and the page cache keeps it; nothing is shown when there is no ad.
 */
export function AdSlot({ placement, circleId, subject, as: Tag = "div" }: AdSlotProps) {
  const [ad, setAd] = useState<{ token: string; title: string; text: string; image_url: string } | null>(null);
  const subjectType = subject?.type;
  const subjectId = subject?.id;
  useEffect(() => {
    let current = true;
    // The language is the page's: the API reads it from the referring page's path.
    const query = new URLSearchParams({ placement });
    if (circleId) query.set("circle_id", `${circleId}`);
    if (subjectType && subjectId) {
      query.set("subject_type", subjectType);
      query.set("subject_id", `${subjectId}`);
    }
    fetch(`/api/ads/slot/?${query}`)
      .then((response) => (response.status === 200 ? response.json() : null))
      .then(
        (served) => current && setAd(served),
        () => undefined,
      );
    return () => {
      current = false;
    };
  }, [placement, circleId, subjectType, subjectId]);
  if (!ad) return null;
  return (
    <Suspense fallback={null}>
      <ServedAd ad={ad} as={Tag} />
    </Suspense>
  );
}
