import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
/** Every folder and file the client and server bundles read: a change to any of them means a new build. */
export const buildInputs = [
  "app",
  "common",
  "features",
  "public",
  "server",
  "package-lock.json",
  "vite.config.ts",
  "react-router.config.ts",
  "scripts/extract-styles.ts",
  "scripts/compress.ts",
];
const stampFile = path.join(root, "build", ".source-hash");

/** A hash of everything the client and server bundles are made from. */
export function sourceHash(): string {
  const hash = createHash("sha256");
  const visit = (file: string) => {
    // Files the build itself writes (app/styles/*.generated.css) are outputs, not sources; tests are in no bundle.
    if (!existsSync(file) || path.basename(file).includes(".generated.") || path.basename(file).endsWith(".test.ts")) return;
    if (statSync(file).isDirectory()) {
      for (const entry of readdirSync(file).sort()) visit(path.join(file, entry));
    } else {
      hash.update(path.relative(root, file)).update(readFileSync(file));
    }
  };
  for (const input of buildInputs) visit(path.join(root, input));
  return hash.digest("hex");
}

export async function ensureBuild(): Promise<void> {
  const current = sourceHash();
  const built =
    existsSync(stampFile) && existsSync(path.join(root, "build", "server", "index.js")) ? readFileSync(stampFile, "utf8").trim() : "";
  if (built === current) return;
  console.log("Building the site (first start or changed sources)…");
  execFileSync("npm", ["run", "build"], { cwd: root, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
  writeFileSync(stampFile, current + "\n");
}

if (import.meta.url === `file://${process.argv[1]}`) await ensureBuild();
