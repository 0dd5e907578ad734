import { useTranslation } from "../lib/i18n.tsx";

export interface AdCardContent {
  title: string;
  text: string;
  image_url: string;
  /** Where a click goes: the click redirect of a served ad, or the destination itself in a preview. */
  href: string;
}

/**
 * An ad as every slot shows it: always labelled (广告 / Ad), apart from the author's text, the
 * link marked sponsored. `label` overrides the label's language (the preview shows both).
 */
export function AdCard({ ad, label, className }: { ad: AdCardContent; label?: string; className?: string }) {
  const { t } = useTranslation("common");
  return (
    <aside className={`ad-card ${className ?? ""}`} aria-label={label ?? t("ad_slot.label")} data-testid="ad-card">
      <span className="ad-label">{label ?? t("ad_slot.label")}</span>
      <a href={ad.href} rel="sponsored noopener" target="_blank" className="ad-link">
        {ad.image_url ? <img src={ad.image_url} alt="" width={96} height={64} loading="lazy" className="ad-image" /> : null}
        <strong className="ad-title">{ad.title}</strong>
        <span className="ad-text">{ad.text}</span>
      </a>
    </aside>
  );
}
