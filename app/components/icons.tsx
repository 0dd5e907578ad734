import type { SVGProps } from "react";

/**
 * The header's few line icons, drawn here so the shell ships no icon library (the shared IconBase
 * of @ant-design/icons alone costs more than these three). They take the text colour and size.
 */
function LineIcon({ children, ...props }: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false" className="line-icon" {...props}>
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
