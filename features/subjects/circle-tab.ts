import type { Executor } from "../../server/db/client.ts";
import type { Viewer } from "../accounts/viewer.ts";
import type { Locale } from "../../common/locale.ts";
import { kindsWith } from "./registry.ts";

/** What a circle page asks of a tab's list: the circle, the order and the page within it. */
export interface CircleTabQuery {
  circleId: number;
  sort: "latest" | "hot";
  /** The list's cursor (`?cursor=`), for lists that page by cursor. */
  cursor: string | null;
  /** The page number (`?page=`, 1 when absent), for lists that page by number. */
  page: number;
  locale: Locale;
  now: Date;
}

/**
 * One tab of a circle's page (`?tab=<name>`), declared by the kind it lists (the subject
 * registration's `circleTabs`). Its label is `kinds:tabs.<name>` and its list is drawn by the
 * view of the same name in `app/components/circle-tabs/` (found by file, so a new kind edits no list).
 */
export interface CircleTabMember {
  name: string;
  /** Its place among the tabs, smallest first; the first tab is the page's default. */
  order: number;
  /** It lists by Latest or Hot (the page shows the order switch). */
  sorted: boolean;
  /** Its list, only for viewers who may read the circle's content; what its view draws. */
  load(db: Executor, viewer: Viewer | null, query: CircleTabQuery): Promise<unknown>;
}

/** Every registered kind's circle tabs in their order (the first is the default). */
export function circleTabList(): CircleTabMember[] {
  return kindsWith("circleTabs")
    .flatMap((kind) => kind.circleTabs)
    .sort((a, b) => a.order - b.order);
}
