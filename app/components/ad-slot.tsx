import { useEffect, useRef, useState } from "react";
import { useTranslation } from "../lib/i18n.tsx";

/* The ad slot and the card every slot shows, in one small module: the reading pages carry it within their JavaScript budget. */

export interface AdCardContent {
  title: string;
  text: string;
  image_url: string;
  /** Where a click goes: the click redirect of a served ad, or the destination itself in a preview. */
  href: string;
}

/**
 * An ad as every slot shows it: always labelled (广告 / Ad), apart from the author's text, the link
 * marked sponsored. `label` overrides the label's language (the preview shows both).
 */
export function AdCard({ ad, label }: { ad: AdCardContent; label?: string }) {
  const { t } = useTranslation("common");
  const name = label ?? t("ad_slot.label");
  return (
    <aside className="ad-card">
      <span className="ad-label">{name}</span>
      <a href={ad.href} rel="sponsored" target="_blank" className="ad-link">
        {ad.image_url ? <img src={ad.image_url} alt="" width={96} height={64} className="ad-image" /> : null}
        <strong className="ad-title">{ad.title}</strong>
        <span>{ad.text}</span>
      </a>
    </aside>
  );
}

export interface AdSlotProps {
  placement: "article" | "question" | "entry" | "feed";
  circleId?: number | null;
  subject?: { type: "writing" | "question" | "entry"; id: number } | null;
  /** An item of a list (between the home feed's cards) or a block. */
  as?: "div" | "li";
}

/**
 * An ad slot: asked for after the page loaded (`/api/ads/slot/`), so the page itself stays the same
 * for every visitor and the page cache keeps it; nothing is shown when there is no ad. Once at
 * least half of it stayed on screen for one second it reports the viewable impression.
 */
export function AdSlot({ placement, circleId, subject, as: Tag = "div" }: AdSlotProps) {
  const [ad, setAd] = useState<{ token: string; title: string; text: string; image_url: string } | null>(null);
  const box = useRef<HTMLDivElement & HTMLLIElement>(null);
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
  useEffect(() => {
    const node = box.current;
    if (!node || !ad) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver(
      ([entry]) => {
        clearTimeout(timer);
        if (entry!.intersectionRatio >= 0.5)
          timer = setTimeout(() => {
            observer.disconnect();
            void fetch("/api/ads/events/", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ token: ad.token, type: "viewable" }),
              keepalive: true,
            });
          }, 1000);
      },
      { threshold: 0.5 },
    );
    observer.observe(node);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [ad]);
  if (!ad) return null;
  return (
    <Tag ref={box} className="ad-slot">
      <AdCard ad={{ ...ad, href: `/ads/click/${ad.token}` }} />
    </Tag>
  );
}
