import { inArray } from "drizzle-orm";
import type { AppContext } from "../context.ts";
import { circles } from "../../server/db/schema/index.ts";
import { readableCircleIds } from "../../features/circles/access.server.ts";
import { walletPageData } from "./wallet-pages.server.ts";
import { withFormToken } from "./circle-pages.server.ts";

/** The circles a task may be posted in or filtered by: those the viewer may read, by name. */
export async function tradeCircles(app: AppContext): Promise<{ id: number; name: string }[]> {
  const ids = await readableCircleIds(app.db, app.viewer);
  if (ids.length === 0) return [];
  const rows = await app.db
    .select({ id: circles.id, nameZh: circles.nameZh, nameEn: circles.nameEn })
    .from(circles)
    .where(inArray(circles.id, ids))
    .orderBy(circles.id)
    .limit(500);
  return rows.map((row) => ({ id: row.id, name: app.locale === "en" ? row.nameEn || row.nameZh : row.nameZh }));
}

/** A task market page's data: with the wallet and a fresh idempotency key when signed in, the CSRF token always. */
export async function tradePageData<T extends object>(app: AppContext, extra: T) {
  if (app.viewer) return walletPageData(app, extra);
  return withFormToken(app, { ...extra, wallet: null, idempotencyKey: "" });
}
