import type { ReactNode } from "react";

/**
 * What a circle page hands the view of one of its tabs (`app/components/circle-tabs/*.tsx`, each
 * exporting `views` by tab name; the page finds them by file). `data` is what the tab's `load`
 * answered (features/subjects/circle-tab.ts).
 */
export interface CircleTabViewProps {
  name: string;
  data: unknown;
  circleId: number;
  canWrite: boolean;
  sort: "latest" | "hot";
  /** The tab's address for the next page of a cursor-paged list. */
  moreHref(cursor: string): string;
  /** A moderator's pin switch and the pinned mark for an item of a pinnable kind. */
  pinControls(type: "writing" | "book", id: number): ReactNode;
}

export type CircleTabView = (props: CircleTabViewProps) => ReactNode;
