import type { CircleTabMember } from "../subjects/circle-tab.ts";
import { listCircleBooks } from "./service.ts";

/** A circle's books tab (`?tab=books&page=N`): its page of books. */
export const bookCircleTabs: CircleTabMember[] = [
  { name: "books", order: 20, sorted: true, load: (db, _viewer, { circleId, page, sort }) => listCircleBooks(db, circleId, page, sort) },
];
