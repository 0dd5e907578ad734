import { availableParallelism } from "node:os";
import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
import { AppError } from "../../common/app-error.ts";
import { defaultLocale, type Locale } from "../../common/locale.ts";
import { markdownLimits, utf8ByteLength, type MarkdownKind, type RenderedContent } from "./schema.ts";

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
}

/**
 * Far above what any real document needs (a 3 KB article takes milliseconds, a 200 KB one well
 * under a second), low enough that a crafted document cannot hold a worker for long.
 */
export const renderTimeLimitMs = 20_000;
/** Waiting for a free worker and starting one (loading Shiki: seconds on a busy machine) are bounded separately. */
export const renderStartLimitMs = 120_000;

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
    maxThreads: Math.max(1, Math.min(2, availableParallelism())),
    idleTimeout: 10 * 60_000,
    maxQueue: 100,
    // A larger stack than a worker's default 4 MB: raw HTML nested 10,000 deep is parsed recursively
    // before the depth cap can flatten it.
    resourceLimits: { maxOldGenerationSizeMb: 512, stackSizeMb: 16 },
  });
  return pool;
}

/**
 * Markdown → sanitized HTML plus its table of contents, text length, reading time and excerpt.
 * Call it when content is saved and store the result; pages serve the stored HTML.
 *
 * Call it outside any database transaction: a document may take up to the time limit, and a
 * transaction held open that long would block other writers (on PGlite, every query).
 *
 * Throws `AppError("content_too_large")` (413) above the kind's size limit and
 * `AppError("content_too_complex")` (422) when the document cannot be rendered within the time,
 * memory and stack bounds (crafted nesting, pathological emphasis and the like).
 */
export async function renderMarkdown(markdown: string, options: RenderOptions = {}): Promise<RenderedContent> {
  const limit = markdownLimits[options.kind ?? "document"];
  if (utf8ByteLength(markdown) > limit) throw new AppError("content_too_large", { params: { max: Math.floor(limit / 1024) } });
  const timeLimit = options.timeLimitMs ?? renderTimeLimitMs;
  const abort = new AbortController();
  const { port1: started, port2: startedPort } = new MessageChannel();
  let renderTimer: NodeJS.Timeout | undefined;
  const startTimer = setTimeout(() => abort.abort(), renderStartLimitMs + timeLimit);
  started.once("message", () => {
    renderTimer = setTimeout(() => abort.abort(), timeLimit);
  });
  const task = {
    markdown,
    options: { locale: options.locale ?? defaultLocale, excerptLength: options.excerptLength ?? 140 },
    started: startedPort,
  };
  try {
    return (await renderPool().run(task, { signal: abort.signal, transferList: [startedPort] as never })) as RenderedContent;
  } catch (error) {
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
