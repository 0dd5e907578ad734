import { useEffect, useRef } from "react";
import { useTranslation } from "../lib/i18n.tsx";

/*
 * The card every ad slot shows, and a served ad's viewability report. Its own chunk: a reading page
 * loads it only when its slot has an ad to show, after the page itself (app/components/ad-slot.tsx).
 */

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

/** A served ad in its slot: once at least half of it stayed on screen for one second it reports the viewable impression. */
export function ServedAd({ ad, as: Tag }: { ad: { token: string; title: string; text: string; image_url: string }; as: "div" | "li" }) {
  const box = useRef<HTMLDivElement & HTMLLIElement>(null);
  useEffect(() => {
    const node = box.current;
    if (!node) return;
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
  return (
    <Tag ref={box} className="ad-slot">
      <AdCard ad={{ ...ad, href: `/ads/click/${ad.token}` }} />
    </Tag>
  );
}
