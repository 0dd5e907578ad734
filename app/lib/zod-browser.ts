/**
 * zod compiles object parsers with `new Function` after probing `Function("")` once; under our
 * Content-Security-Policy (no `unsafe-eval`) the browser reports that probe as a violation even
 * though zod catches it. In the browser zod runs without the compiler (`jitless`); this module is
 * the first import of the root route, whose chunk the document evaluates before any other route
 * module, so the setting is in place before any schema is built. The server keeps the compiler.
 */
import { config } from "zod/v4/core";

if (typeof document !== "undefined") config({ jitless: true });
