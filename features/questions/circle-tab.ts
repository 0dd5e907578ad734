import type { CircleTabMember } from "../subjects/circle-tab.ts";
import { listQuestions } from "./service.ts";

/** A circle's questions tab: the newest or hottest (the circle's Q&A page has them all). */
export const questionCircleTabs: CircleTabMember[] = [
  {
    name: "questions",
    order: 40,
    sorted: true,
    load: (db, viewer, { circleId, sort, cursor }) => listQuestions(db, viewer, { circleId, tab: sort, cursor }),
  },
];
