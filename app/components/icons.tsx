import type { SVGProps } from "react";

/**
 * The header's few line icons, drawn here so the shell ships no icon library (the shared IconBase
 * of @ant-design/icons alone costs more than these few). They take the text colour and size.
 */
function LineIcon({ children, ...props }: SVGProps<SVGSVGElement>) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="1em"
      height="1em"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className="line-icon"
      {...props}
    >
      {children}
    </svg>
  );
}

export function SearchIcon() {
  return (
    <LineIcon>
      <circle cx="10.5" cy="10.5" r="6.5" />
      <path d="M15.5 15.5 21 21" />
    </LineIcon>
  );
}

export function WriteIcon() {
  return (
    <LineIcon>
      <path d="M4 20h4L19 9l-4-4L4 16z" />
      <path d="M13.5 6.5l4 4" />
    </LineIcon>
  );
}

export function BellIcon() {
  return (
    <LineIcon>
      <path d="M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15z" />
      <path d="M10 20.5a2 2 0 0 0 4 0" />
    </LineIcon>
  );
}

/** The password is shown (pressing hides it). */
export function EyeIcon() {
  return (
    <LineIcon>
      <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
    </LineIcon>
  );
}

/** The password is hidden (pressing shows it). */
export function EyeOffIcon() {
  return (
    <LineIcon>
      <path d="M9.9 5.2A9.7 9.7 0 0 1 12 5c6.5 0 10 7 10 7a17 17 0 0 1-2.6 3.5M6.6 6.6C3.7 8.4 2 12 2 12s3.5 7 10 7a9.5 9.5 0 0 0 5.4-1.6" />
      <path d="M9.9 9.9a3 3 0 0 0 4.2 4.2" />
      <path d="M3 3l18 18" />
    </LineIcon>
  );
}

/** Like (and, turned over, dislike) in the action bar. */
export function ThumbIcon({ down = false }: { down?: boolean }) {
  return (
    <LineIcon style={down ? { transform: "rotate(180deg)" } : undefined}>
      <path d="M7 10v11H3V10zM7 10l4-8a3 3 0 0 1 3 3v4h6a2 2 0 0 1 2 2.3l-1.4 8A2 2 0 0 1 18.6 21H7" />
    </LineIcon>
  );
}

/** Favourite in the action bar. */
export function StarIcon() {
  return (
    <LineIcon>
      <path d="M12 3l2.8 5.7 6.2.9-4.5 4.4 1 6.2L12 17.3 6.5 20.2l1-6.2L3 9.6l6.2-.9z" />
    </LineIcon>
  );
}

export function FlagIcon() {
  return (
    <LineIcon>
      <path d="M5 21V4h11l-1.5 4L16 12H5" />
    </LineIcon>
  );
}

/** A coin (the tip button). */
export function CoinIcon() {
  return (
    <LineIcon>
      <circle cx="12" cy="12" r="9" />
      <path d="M7 12c1.2-3.5 2.8-3.5 4 0s2.8 3.5 4 0" />
    </LineIcon>
  );
}
