import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** Precompresses the client build (brotli and gzip) so @fastify/static serves it without compressing per request. */
const clientDirectory = path.resolve(import.meta.dirname, "../build/client");
const compressible = /\.(js|css|svg|json|html|txt|xml|map)$/;

function visit(directory: string): void {
  for (const entry of readdirSync(directory)) {
    const file = path.join(directory, entry);
    if (statSync(file).isDirectory()) visit(file);
    else if (compressible.test(file) && statSync(file).size > 1024) {
      const content = readFileSync(file);
      writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
    }
  }
}

visit(clientDirectory);
