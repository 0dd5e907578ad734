import type { ReactNode } from "react";
import { useTranslation } from "../lib/i18n.tsx";

/* The shop's drawn icons (SVG, never emoji: Chromium here has no emoji font), the badges worn beside a name and the frames around an avatar. */

function Drawing({ children, size }: { children: ReactNode; size: string }) {
  return (
    <svg viewBox="0 0 48 48" width={size} height={size} aria-hidden="true" focusable="false" className="shop-icon">
      {children}
    </svg>
  );
}

const drawings: Record<string, ReactNode> = {
  // A calendar page with a day ticked back in.
  makeup_card: (
    <>
      <rect x="7" y="10" width="34" height="31" rx="4" fill="#fff" stroke="#1E90FF" strokeWidth="2.5" />
      <path d="M7 18h34" stroke="#1E90FF" strokeWidth="2.5" />
      <path d="M16 6v8M32 6v8" stroke="#1E90FF" strokeWidth="3" strokeLinecap="round" />
      <path d="m16 29 5 5 11-11" fill="none" stroke="#16a34a" strokeWidth="3.5" strokeLinecap="round" strokeLinejoin="round" />
    </>
  ),
  // A mortarboard on a blue shield.
  badge_scholar: (
    <>
      <path d="M24 4 40 10v12c0 11-7 18-16 22C15 40 8 33 8 22V10z" fill="#1E90FF" />
      <path d="m12 20 12-6 12 6-12 6z" fill="#fff" />
      <path d="M17 23v6c4 3 10 3 14 0v-6l-7 3.5z" fill="#fff" />
      <path d="M35 20v8" stroke="#fde68a" strokeWidth="2" strokeLinecap="round" />
    </>
  ),
  // A quill over an ink line, in a purple roundel.
  badge_quill: (
    <>
      <circle cx="24" cy="24" r="20" fill="#7c3aed" />
      <path d="M33 11c-9 2-15 9-17 19l3 1c2-8 7-14 14-20z" fill="#fff" />
      <path d="M16 30 13 37" stroke="#fff" strokeWidth="2.5" strokeLinecap="round" />
      <path d="M21 37h14" stroke="#c4b5fd" strokeWidth="2.5" strokeLinecap="round" />
    </>
  ),
  // A gold star medal on a red ribbon.
  badge_star: (
    <>
      <path d="M15 4h8l-4 14h-8zM33 4h-8l4 14h8z" fill="#dc2626" />
      <circle cx="24" cy="30" r="14" fill="#E3A008" />
      <circle cx="24" cy="30" r="11" fill="none" stroke="#fff" strokeOpacity="0.6" />
      <path d="m24 22 2.4 5 5.4.6-4 3.7 1.1 5.3L24 34l-4.9 2.6 1.1-5.3-4-3.7 5.4-.6z" fill="#fff" />
    </>
  ),
  // A jade ring with pale beads.
  frame_jade: (
    <>
      <circle cx="24" cy="24" r="17" fill="none" stroke="#10b981" strokeWidth="6" />
      <circle cx="24" cy="7" r="3" fill="#d1fae5" />
      <circle cx="41" cy="24" r="3" fill="#d1fae5" />
      <circle cx="24" cy="41" r="3" fill="#d1fae5" />
      <circle cx="7" cy="24" r="3" fill="#d1fae5" />
    </>
  ),
  // A gold ring with a small crown on top.
  frame_gold: (
    <>
      <circle cx="24" cy="26" r="16" fill="none" stroke="#E3A008" strokeWidth="6" />
      <path d="m15 12 3-8 6 5 6-5 3 8z" fill="#E3A008" stroke="#b45309" strokeWidth="1" strokeLinejoin="round" />
    </>
  ),
  // A pin over a page with "24".
  highlight_24h: (
    <>
      <rect x="8" y="14" width="32" height="28" rx="4" fill="#fff7ed" stroke="#f97316" strokeWidth="2.5" />
      <path d="M24 3v9" stroke="#f97316" strokeWidth="3" strokeLinecap="round" />
      <circle cx="24" cy="6" r="4" fill="#f97316" />
      <text x="24" y="35" textAnchor="middle" fontSize="14" fontWeight="700" fill="#c2410c" fontFamily="sans-serif">
        24
      </text>
    </>
  ),
};

/** An item's drawn icon (48 px unless told). */
export function ShopIcon({ item, size = "48" }: { item: string; size?: string }) {
  return <Drawing size={size}>{drawings[item] ?? drawings.makeup_card}</Drawing>;
}

/** The badge a user wears, beside their name: its icon, named for screen readers and on hover. */
export function WornBadge({ item }: { item: string | null | undefined }) {
  // Its name from the core texts (`common:worn_badges`), so reading pages need not load the wallet's.
  const { t } = useTranslation("common");
  if (!item || !drawings[item]) return null;
  const name = t(`worn_badges.${item}`);
  return (
    <span className="worn-badge" title={name} data-testid="worn-badge" data-item={item}>
      <ShopIcon item={item} size="1.25em" />
      <span className="visually-hidden">{name}</span>
    </span>
  );
}

/** An avatar inside the frame its owner wears (or as it is, without one). */
export function FramedAvatar({ frame, children }: { frame: string | null | undefined; children: ReactNode }) {
  if (!frame || !drawings[frame]) return <>{children}</>;
  return (
    <span className={`avatar-frame avatar-frame-${frame.replace("frame_", "")}`} data-testid="avatar-frame" data-item={frame}>
      {children}
    </span>
  );
}
