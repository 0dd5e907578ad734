import { randomUUID } from "node:crypto";
import type { AppContext } from "../context.ts";
import { withFormToken } from "./circle-pages.server.ts";
import { presentMovement, presentWallet } from "../../features/wallet/operations.ts";
import { listMovements, walletSummary } from "../../features/wallet/service.ts";
import type { TransactionsQuery, MovementKind } from "../../features/wallet/schema.ts";
import { requireViewer } from "./context.server.ts";

/**
 * A wallet page's data: the viewer's balances, the CSRF token, and a fresh idempotency key for its
 * money-moving forms (a form sent twice carries the same key and moves money once; the next page
 * load brings a new key).
 */
export async function walletPageData<T extends object>(app: AppContext, extra: T) {
  const viewer = requireViewer(app);
  const wallet = presentWallet(await walletSummary(app.db, viewer.id));
  return withFormToken(app, { ...extra, wallet, idempotencyKey: randomUUID() });
}

export async function movementPage(app: AppContext, query: TransactionsQuery & { incoming?: readonly MovementKind[] }, limit = 20) {
  const viewer = requireViewer(app);
  const page = await listMovements(app.db, viewer.id, query, limit);
  return { lines: page.items.map(presentMovement), nextCursor: page.nextCursor };
}
