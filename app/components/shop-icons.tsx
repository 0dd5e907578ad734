import type { ReactNode } from "react";
import { badgeDrawings, Drawing, FramedAvatar, WornBadge } from "./worn-items.tsx";

/* The shop's drawn icons (SVG, never emoji: Chromium here has no emoji font), the badges worn beside a name and the frames around an avatar. */

const drawings: Record<string, ReactNode> = {
  ...badgeDrawings,
  // A calendar page with a day ticked back in.
  makeup_card: (
    <>
      <rect x="7" y="10" width="34" height="31" rx="4" fill="#fff" stroke="#1E90FF" strokeWidth="2.5" />
      <path d="M7 18h34" stroke="#1E90FF" strokeWidth="2.5" />
      <path d="M16 6v8M32 6v8" stroke="#1E90FF" strokeWidth="3" strokeLinecap="round" />
      <path d="m16 29 5 5 11-11" fill="none" stroke="#16a34a" strokeWidth="3.5" strokeLinecap="round" strokeLinejoin="round" />
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

export { FramedAvatar, WornBadge };
