import type { ReactNode } from "react";
import { SectionLayout } from "./section-layout.tsx";
import "../lib/creator-catalog.ts";

/** The creator pages, the monetization programme's entry, and writing a new article. */
const sections = [
  { path: "/creator", key: "home", end: true },
  { path: "/creator/manage/content", key: "content", end: false },
  { path: "/creator/manage/comment", key: "comments", end: false },
  { path: "/creator/analysis/content", key: "analysis_content", end: false },
  { path: "/creator/analysis/profit", key: "analysis_profit", end: false },
  { path: "/creator/monetization", key: "monetization", end: false },
  { path: "/account/drafts", key: "drafts", end: false },
  { path: "/circles/1/write/article", key: "write", end: false },
] as const;

/** The creator centre's frame: its pages on the side (below the header on phones), the page beside them. */
export function CreatorLayout({ children }: { children: ReactNode }) {
  return (
    <SectionLayout namespace="creator" sections={sections} className="creator-layout">
      {children}
    </SectionLayout>
  );
}
