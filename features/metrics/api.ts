import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { AppError } from "../../common/app-error.ts";
import { resolveVisitor, visitorCookieName } from "../../server/lib/visitor.ts";
import { idSchema } from "../../common/id.ts";
import { loadSubject } from "../subjects/registry.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { isBotAgent, isViewedKind, ViewBuffer, type ViewedKind } from "./views.ts";

/** The 1×1 transparent GIF the beacons answer. */
export const beaconPixel = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

/** Where a page embeds its view beacon (the generic route; `viewBeaconPath` for links). */
export function viewBeaconPath(type: ViewedKind, id: number): string {
  return `/api/views/${type}/${id}/view.gif`;
}

export function readBeaconPath(type: ViewedKind, id: number): string {
  return `/api/views/${type}/${id}/read.gif`;
}

/**
 * The addresses pages cached before the one route embedded, kept so they still count (each maps to
 * the generic handler; nothing else differs).
 */
const legacyViewPaths: Record<string, ViewedKind> = {
  "/api/writings/:id/view.gif": "writing",
  "/api/books/:id/view.gif": "book",
  "/api/encyclopedia/entries/:id/view.gif": "entry",
  "/api/questions/:id/view.gif": "question",
};

function pixel(reply: FastifyReply) {
  return reply.header("cache-control", "private, no-store").type("image/gif").send(beaconPixel);
}

/** How long a beacon remembers that a viewer may read a subject (buffered beacons only). */
const readableMemoryMs = 5_000;
/** Bound of that memory (it is emptied when full). */
const readableMemoryEntries = 10_000;

/**
 * The view and read beacons of every kind with a page (docs/features/metrics.md). Beacons are
 * gathered in this process's `ViewBuffer` and written every `viewFlushMs` (default 1 s; 0 writes
 * each before answering) and when the server closes. With a buffer, whether a viewer may read the
 * subject is remembered for 5 s, so a burst of beacons on one page asks the database once.
 */
export async function metricsApi(app: FastifyInstance, options: { viewFlushMs?: number } = {}): Promise<void> {
  const intervalMs = options.viewFlushMs ?? 1000;
  const buffer = new ViewBuffer(app.db, { intervalMs, log: app.log });
  app.addHook("onClose", async () => buffer.close());
  const readable = new Map<string, { readable: boolean; until: number }>();

  /** Whether the viewer may read the subject (a beacon for anything else counts nothing). */
  const mayRead = async (viewer: Viewer | null, type: ViewedKind, id: number): Promise<boolean> => {
    const key = `${viewer?.id ?? ""}:${type}:${id}`;
    const now = Date.now();
    const known = intervalMs > 0 ? readable.get(key) : undefined;
    if (known && known.until > now) return known.readable;
    let answer = true;
    try {
      await loadSubject(app.db, viewer, type, id);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      answer = false;
    }
    if (intervalMs > 0) {
      if (readable.size >= readableMemoryEntries) readable.clear();
      readable.set(key, { readable: answer, until: now + readableMemoryMs });
    }
    return answer;
  };

  /**
   * The beacon's visitor (the user, or the hashed visitor cookie, issued when missing) and the
   * subject, when the viewer may read it; null otherwise. Unknown or unreadable subjects answer the
   * same pixel: a beacon never tells whether something exists.
   */
  const beaconTarget = async (request: FastifyRequest, reply: FastifyReply, type: string, id: number) => {
    const viewer = await request.viewer();
    const { key, issued } = resolveVisitor(viewer, request.cookies[visitorCookieName], request.protocol === "https");
    if (issued) reply.header("set-cookie", issued);
    if (!isViewedKind(type) || !(await mayRead(viewer, type, id))) return null;
    return { key, subject: { type, id } };
  };

  const params = z.object({ type: z.string().max(20), id: idSchema });
  const countView = async (request: FastifyRequest, reply: FastifyReply, type: string, id: number) => {
    const target = await beaconTarget(request, reply, type, id);
    if (target) await buffer.addView(target.subject, target.key, isBotAgent(request.headers["user-agent"]), app.now());
    return pixel(reply);
  };
  /** An image, so cached pages and pages without JavaScript count too. */
  app.get("/api/views/:type/:id/view.gif", { schema: { hide: true, params } }, async (request, reply) => {
    const { type, id } = request.params as z.infer<typeof params>;
    return countView(request, reply, type, id);
  });
  for (const [path, type] of Object.entries(legacyViewPaths)) {
    app.get(path, { schema: { hide: true, params: z.object({ id: idSchema }) } }, async (request, reply) =>
      countView(request, reply, type, (request.params as { id: number }).id),
    );
  }
  /** Sent by the page's script when the end of the text was seen or the page stayed the minimum time. */
  app.get("/api/views/:type/:id/read.gif", { schema: { hide: true, params } }, async (request, reply) => {
    const { type, id } = request.params as z.infer<typeof params>;
    const target = await beaconTarget(request, reply, type, id);
    if (target && !isBotAgent(request.headers["user-agent"])) await buffer.addRead(target.subject, target.key, app.now());
    return pixel(reply);
  });
}
