import type { ReactNode } from "react";
import { useTranslation } from "../lib/i18n.tsx";

/*
 * What a user wears beside their name on every reading page: the badges' drawings (SVG, never
 * emoji) and the frames around an avatar. Apart from the shop's other drawings
 * (app/components/shop-icons.tsx), so reading pages load only these.
 */

export function Drawing({ children, size }: { children: ReactNode; size: string }) {
  return (
    <svg viewBox="0 0 48 48" width={size} height={size} aria-hidden="true" focusable="false" className="shop-icon">
      {children}
    </svg>
  );
}

export const badgeDrawings: Record<string, ReactNode> = {
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
};

/** The frames an avatar may wear (drawn by CSS: `avatar-frame-*`). */
const wornFrames = new Set(["frame_jade", "frame_gold"]);

/** The badge a user wears, beside their name: its icon, named for screen readers and on hover. */
export function WornBadge({ item }: { item: string | null | undefined }) {
  // Its name from the core texts (`common:worn_badges`), so reading pages need not load the wallet's.
  const { t } = useTranslation("common");
  if (!item || !badgeDrawings[item]) return null;
  const name = t(`worn_badges.${item}`);
  return (
    <span className="worn-badge" title={name} data-testid="worn-badge" data-item={item}>
      <Drawing size="1.25em">{badgeDrawings[item]}</Drawing>
      <span className="visually-hidden">{name}</span>
    </span>
  );
}

/** An avatar inside the frame its owner wears (or as it is, without one). */
export function FramedAvatar({ frame, children }: { frame: string | null | undefined; children: ReactNode }) {
  if (!frame || !wornFrames.has(frame)) return <>{children}</>;
  return (
    <span className={`avatar-frame avatar-frame-${frame.replace("frame_", "")}`} data-testid="avatar-frame" data-item={frame}>
      {children}
    </span>
  );
}
