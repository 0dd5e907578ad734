import type { ReactNode } from "react";

/** An honest empty state: a light illustration, what is missing, and what to do next. */
export function EmptyState({ description, children }: { description: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <svg className="empty-state-image" viewBox="0 0 64 41" width="64" height="41" aria-hidden="true">
        <g transform="translate(0 1)" fill="none" fillRule="evenodd">
          <ellipse className="empty-state-shadow" cx="32" cy="33" rx="32" ry="7" />
          <g className="empty-state-box" fillRule="nonzero">
            <path d="M55 12.76L44.85 1.26A2.56 2.56 0 0043 .5H21c-.7 0-1.37.28-1.85.76L9 12.76V22h46v-9.24z" />
            <path
              d="M41.61 15.93c0-1.6.99-2.92 2.23-2.92H55v18.14C55 33.28 53.68 35 52.06 35H11.94C10.32 35 9 33.27 9 31.15V13.01h11.16c1.24 0 2.23 1.32 2.23 2.92v.02c0 1.6 1 2.9 2.24 2.9h14.74c1.23 0 2.24-1.31 2.24-2.91v-.01z"
              className="empty-state-tray"
            />
          </g>
        </g>
      </svg>
      <p className="empty-state-description">{description}</p>
      {children ? <div className="empty-state-actions">{children}</div> : null}
    </div>
  );
}
