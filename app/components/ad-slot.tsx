import { useEffect, useRef, useState } from "react";
import { useTranslation } from "../lib/i18n.tsx";
import { AdCard } from "./ad-card.tsx";

interface ServedSlot {
  token: string;
  title: string;
  text: string;
  image_url: string;
  url: string;
}

export interface AdSlotProps {
  placement: "article" | "question" | "entry" | "feed";
  circleId?: number | null;
  subject?: { type: "writing" | "question" | "entry"; id: number } | null;
  /** An item of a list (between the home feed's cards) or a block. */
  as?: "div" | "li";
}

/** At least half of the ad on screen for one continuous second: the viewable impression (MRC's display rule). */
function useViewable(element: React.RefObject<HTMLElement | null>, token: string | null): void {
  useEffect(() => {
    const node = element.current;
    if (!node || !token || typeof IntersectionObserver === "undefined") return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (entry && entry.intersectionRatio >= 0.5) {
          timer ??= setTimeout(() => {
            observer.disconnect();
            void fetch("/api/ads/events/", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ token, type: "viewable" }),
              keepalive: true,
              credentials: "same-origin",
            }).catch(() => undefined);
          }, 1000);
        } else if (timer) {
          clearTimeout(timer);
          timer = undefined;
        }
      },
      { threshold: [0, 0.5, 1] },
    );
    observer.observe(node);
    return () => {
      observer.disconnect();
      if (timer) clearTimeout(timer);
    };
  }, [element, token]);
}

/**
 * An ad slot: asked for after the page loaded (`/api/ads/slot/`), so the page itself stays the
 * same for every visitor and the page cache keeps it; nothing is shown when there is no ad.
 */
export function AdSlot({ placement, circleId, subject, as = "div" }: AdSlotProps) {
  const { i18n } = useTranslation("common");
  const [ad, setAd] = useState<ServedSlot | null>(null);
  const box = useRef<HTMLElement>(null);
  const language = i18n.language;
  const subjectType = subject?.type;
  const subjectId = subject?.id;
  useEffect(() => {
    const query = new URLSearchParams({ placement, language });
    if (circleId) query.set("circle_id", String(circleId));
    if (subjectType && subjectId) {
      query.set("subject_type", subjectType);
      query.set("subject_id", String(subjectId));
    }
    let current = true;
    fetch(`/api/ads/slot/?${query}`, { credentials: "same-origin" })
      .then(async (response) => (response.status === 200 ? ((await response.json()) as ServedSlot) : null))
      .then((served) => {
        if (current) setAd(served);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [placement, circleId, subjectType, subjectId, language]);
  useViewable(box, ad?.token ?? null);
  if (!ad) return null;
  const card = (
    <AdCard ad={{ title: ad.title, text: ad.text, image_url: ad.image_url, href: `/ads/click/${encodeURIComponent(ad.token)}` }} />
  );
  return as === "li" ? (
    <li ref={box as React.RefObject<HTMLLIElement>} className="ad-slot feed-card" data-placement={placement}>
      {card}
    </li>
  ) : (
    <div ref={box as React.RefObject<HTMLDivElement>} className="ad-slot" data-placement={placement}>
      {card}
    </div>
  );
}
