import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";

const root = import.meta.dirname;
/** Source folders the server process itself runs (Node strips the types): see `sharedWithServer`. */
const serverSources = ["common", "features", "server"].map((folder) => path.join(root, folder) + path.sep);
const contextModule = path.join(root, "app", "context.ts");

/**
 * One module graph: the server bundle imports our domain and infrastructure modules from their
 * source files instead of bundling copies, so the Fastify process and the pages share every
 * in-process singleton (the loader context token, the session cache, the invalidation bus).
 * JSON catalogs stay bundled: they are data, not state.
 */
function sharedWithServer(id: string, importer: string | undefined): boolean {
  const absolute = id.startsWith(".") && importer ? path.resolve(path.dirname(importer), id) : id;
  if (!path.isAbsolute(absolute) || absolute.endsWith(".json") || absolute.includes("?")) return false;
  return absolute === contextModule || serverSources.some((folder) => absolute.startsWith(folder));
}

/** In the server build only: these imports stay imports of the very files Node runs. */
const serverModuleGraph: Plugin = {
  name: "circles-one-module-graph",
  enforce: "pre",
  applyToEnvironment: (environment) => environment.name === "ssr",
  resolveId(source, importer) {
    if (!sharedWithServer(source, importer)) return null;
    const absolute = source.startsWith(".") && importer ? path.resolve(path.dirname(importer), source) : source;
    return { id: absolute, external: "absolute" };
  },
};

/**
 * Browser chunks. What every page loads goes in two files instead of two dozen: the framework
 * (React, React Router) and the shell (the root's header, footer, the translator and the small
 * helpers every route shares). Fewer, larger files compress better and cost fewer requests; route
 * modules, their catalogs and heavy parts (antd, CodeMirror, KaTeX's CSS) stay split per page.
 */
const frameworkPackages =
  /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|use-sync-external-store|cookie|set-cookie-parser)[\\/]/;
const framework = (id: string) => frameworkPackages.test(id);
const shell =
  /[\\/]app[\\/](components[\\/](site-header|site-footer|icons|breadcrumb|error-screen)\.tsx|lib[\\/]((session-store|build-watch|meta)\.ts|i18n\.tsx)|routes[\\/]site-layout\.tsx)$|[\\/]common[\\/](locale|i18n)\.ts$|[\\/]features[\\/]accounts[\\/]presenter\.ts$|preload-helper/;

export default defineConfig({
  plugins: [serverModuleGraph, reactRouter()],
  publicDir: "public",
  build: { assetsInlineLimit: 0 },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: "framework", test: framework, priority: 2 },
                { name: "shell", test: shell, priority: 1 },
              ],
            },
          },
        },
      },
    },
  },
});
