/**
 * zod compiles object parsers with `new Function` after probing `Function("")` once; under our
 * Content-Security-Policy (no `unsafe-eval`) the browser reports that probe as a violation even
 * though zod catches it. In the browser zod runs without the compiler (`jitless`); this module is
 * the first import of the root route, whose chunk the document evaluates before any other route
 * module, so the setting is in place before any schema is built. The server keeps the compiler.
 *
 * It writes zod's shared configuration object (`globalThis.__zod_globalConfig`, what
 * `z.config()` changes, created by whichever comes first) instead of importing zod: the first
 * page load then carries no zod code at all (3.5 KiB of brotli). `zod-browser.test.ts` checks the
 * object is still the one zod reads, and the browser test checks no violation is raised.
 */
type ZodGlobal = typeof globalThis & { __zod_globalConfig?: { jitless?: boolean } };

export function configureZodForBrowser(): void {
  const scope = globalThis as ZodGlobal;
  (scope.__zod_globalConfig ??= {}).jitless = true;
}

if (typeof document !== "undefined") configureZodForBrowser();
