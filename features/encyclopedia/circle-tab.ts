import type { CircleTabMember } from "../subjects/circle-tab.ts";
import { listCircleEntryGroups } from "./home.ts";

/** A circle's encyclopedia tab: its entries grouped by their first letter. */
export const entryCircleTabs: CircleTabMember[] = [
  {
    name: "encyclopedia",
    order: 50,
    sorted: false,
    load: (db, _viewer, { circleId, locale }) => listCircleEntryGroups(db, circleId, locale),
  },
];
