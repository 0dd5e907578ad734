import { availableParallelism } from "node:os";
import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
import { AppError } from "../../common/app-error.ts";
import { defaultLocale, type Locale } from "../../common/locale.ts";
import { markdownLimits, utf8ByteLength, type MarkdownKind, type RenderedContent } from "./schema.ts";
import { currentRequestScope } from "../../server/lib/request-scope.ts";
import { FairQueue, siteOwner } from "./render-queue.ts";
import { countInstance } from "../../server/lib/single-instance.ts";

countInstance("content/render-queue");

export type { RenderedContent, TocItem } from "./schema.ts";

export interface RenderOptions {
  /** Language of the generated labels (footnotes heading, back links). Default zh-CN. */
  locale?: Locale;
  /** Which size limit applies (`markdownLimits`). Default "document" (200 KiB). */
  kind?: MarkdownKind;
  /** Excerpt length in characters. Default 140. */
  excerptLength?: number;
  /** Time limit for rendering one document, from the moment a ready worker starts it. Default `renderTimeLimitMs`. */
  timeLimitMs?: number;
  /** Whose render this is, for fair turns (`user:<id>`, `ip:<address>`, `siteOwner`). Default: the request's (request-scope.ts). */
  owner?: string;
  /** The client went away: drop the render. Default: the request's. */
  signal?: AbortSignal;
}

/**
 * Far above what any real document needs (a 3 KB article takes milliseconds, a 200 KB one well
 * under a second), low enough that a crafted document cannot hold a worker for long.
 */
export const renderTimeLimitMs = 20_000;
/** Starting a worker (loading Shiki: seconds on a busy machine) is bounded separately. */
export const renderStartLimitMs = 120_000;
/** The longest a render waits for its turn; then `server_busy` (503), never `content_too_complex`. */
export const renderWaitLimitMs = 120_000;

const threads = Math.max(1, Math.min(2, availableParallelism()));

/**
 * Rendering runs in worker threads: a large or hostile document never blocks the event loop that
 * serves pages, a document that would take too long is stopped (its worker is ended and replaced),
 * and one that exhausts the worker's memory or stack ends only that worker. Each worker loads
 * Shiki and KaTeX once, on its first document, and leaves after ten idle minutes.
 */
let pool: Piscina | undefined;

function renderPool(): Piscina {
  pool ??= new Piscina({
    filename: new URL("./render-worker.server.ts", import.meta.url).href,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: 10 * 60_000,
    // A larger stack than a worker's default 4 MB: raw HTML nested 10,000 deep is parsed recursively
    // before the depth cap can flatten it.
    resourceLimits: { maxOldGenerationSizeMb: 512, stackSizeMb: 16 },
  });
  return pool;
}

/**
 * Turns on the workers, fairly between users: one render running per user at a time and two
 * waiting, a free worker going to the user served longest ago (see render-queue.ts).
 */
export const renderQueue = new FairQueue({ slots: threads, perOwnerRunning: 1, perOwnerWaiting: 2, maxWaitMs: renderWaitLimitMs });

/**
 * Markdown → sanitized HTML plus its table of contents, text length, reading time and excerpt.
 * Call it when content is saved and store the result; pages serve the stored HTML.
 *
 * Call it outside any database transaction: a document may take up to the time limit, and a
 * transaction held open that long would block other writers (on PGlite, every query).
 *
 * Throws `AppError("content_too_large")` (413) above the kind's size limit,
 * `AppError("content_too_complex")` (422) when the document cannot be rendered within the time,
 * memory and stack bounds (crafted nesting, pathological emphasis and the like), `rendering_busy`
 * (429) when the user already has renders waiting, `server_busy` (503) when its turn did not come
 * in time, and `request_aborted` when the client left first.
 */
export async function renderMarkdown(markdown: string, options: RenderOptions = {}): Promise<RenderedContent> {
  const limit = markdownLimits[options.kind ?? "document"];
  if (utf8ByteLength(markdown) > limit) throw new AppError("content_too_large", { params: { max: Math.floor(limit / 1024) } });
  const scope = currentRequestScope();
  const owner = options.owner ?? (scope ? await scope.owner() : siteOwner);
  return renderQueue.run(owner, options.signal ?? scope?.signal, (signal) => renderInWorker(markdown, options, signal));
}

/** One render on a worker, its time limit counted from the moment the worker starts it. */
async function renderInWorker(markdown: string, options: RenderOptions, turn: AbortSignal): Promise<RenderedContent> {
  const timeLimit = options.timeLimitMs ?? renderTimeLimitMs;
  const limits = new AbortController();
  let exceeded: "start" | "render" | undefined;
  const { port1: started, port2: startedPort } = new MessageChannel();
  let renderTimer: NodeJS.Timeout | undefined;
  const startTimer = setTimeout(() => {
    exceeded = "start";
    limits.abort();
  }, renderStartLimitMs);
  started.once("message", () => {
    clearTimeout(startTimer);
    renderTimer = setTimeout(() => {
      exceeded = "render";
      limits.abort();
    }, timeLimit);
  });
  const task = {
    markdown,
    options: { locale: options.locale ?? defaultLocale, excerptLength: options.excerptLength ?? 140 },
    started: startedPort,
  };
  try {
    const signal = AbortSignal.any([turn, limits.signal]);
    return (await renderPool().run(task, { signal, transferList: [startedPort] as never })) as RenderedContent;
  } catch (error) {
    if (turn.aborted) throw new AppError("request_aborted");
    // A worker that could not even start is the machine's trouble, not the document's.
    if (exceeded === "start") throw new AppError("server_busy", { params: { seconds: 10 } });
    if (isResourceFailure(error)) throw new AppError("content_too_complex");
    throw error;
  } finally {
    clearTimeout(startTimer);
    clearTimeout(renderTimer);
    started.close();
  }
}

/** Time limit reached, worker out of memory, or the stack overflowed while parsing. */
function isResourceFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return error.name === "AbortError" || error instanceof RangeError || code === "ERR_WORKER_OUT_OF_MEMORY";
}

/** Ends the worker threads (tests, shutdown). A later render starts new ones. */
export async function closeRenderer(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.destroy();
}
