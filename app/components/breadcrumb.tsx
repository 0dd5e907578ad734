import type { ReactNode } from "react";
import { Link } from "react-router";

/** The trail above a page: links to the places above it, then the page itself (not a link). */
export function Breadcrumb({ label, trail, current }: { label: string; trail: { to: string; label: ReactNode }[]; current: ReactNode }) {
  return (
    <nav className="breadcrumb" aria-label={label}>
      <ol>
        {trail.map((step) => (
          <li key={step.to}>
            <Link to={step.to}>{step.label}</Link>
          </li>
        ))}
        <li aria-current="page">{current}</li>
      </ol>
    </nav>
  );
}
