import { createServer } from "node:http";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { RouterContextProvider, type EntryContext, type ServerBuild } from "react-router";
import { appContext, type AppContext } from "../app/context.ts";
import { loadConfig } from "../server/config.ts";
import { embeddedDataPath, openEmbeddedDatabase } from "../server/db/client.ts";
import { seed } from "../server/db/seed.ts";
import { buildApp } from "../server/app.ts";

/**
 * Baseline of the signed-in article: React rendering the same tree, and nothing else. This process
 * starts the product on its own copy of the demo data (DATA_DIR), signs the demo reader in and
 * requests the article once, keeping what React Router hands our document renderer: the route
 * tree with its loader data (`EntryContext`) and the encoded hydration data. Then, for every
 * request over bare node:http, it calls our own document renderer (`app/entry.server.tsx`: React's
 * `renderToPipeableStream` waiting for `onAllReady`, as every page does) with that context and a
 * fresh nonce, and sends the document with the headers our page had. So the answer is our page,
 * rendered by the same components, translations and React Router components; what it leaves out is
 * what serving it costs beyond rendering: the session, routing, loaders and queries, encoding the
 * data, the HTTP framework. `renderToString` cannot be the renderer: the tree suspends on React
 * Router's hydration data, which `renderToString` leaves out.
 *
 * Arguments: port, article path, session-less headers JSON. Prints the size of its document.
 */
const [port, articlePath] = process.argv.slice(2);
const config = loadConfig();
const database = await openEmbeddedDatabase(embeddedDataPath(config.dataDir));
await database.migrate();
await seed(database);

let captured:
  | { context: EntryContext; handoff: Uint8Array[]; status: number; headers: Headers; render: ServerBuild["entry"]["module"]["default"] }
  | undefined;

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

const app = await buildApp({
  config,
  database,
  pages: {
    buildDirectory: path.resolve(import.meta.dirname, "..", "build"),
    cache: false,
    wrapBuild: (build) => {
      const render = build.entry.module.default;
      return {
        ...build,
        entry: {
          module: {
            ...build.entry.module,
            default: async (request, status, headers, context, loadContext) => {
              const handoff: Uint8Array[] = [];
              if (context.serverHandoffStream) {
                const reader = context.serverHandoffStream.getReader();
                for (let read = await reader.read(); !read.done; read = await reader.read()) handoff.push(read.value as Uint8Array);
              }
              const fresh = { ...context, serverHandoffStream: streamOf(handoff) };
              if (new URL(request.url).pathname === articlePath)
                captured = { context, handoff, status, headers: new Headers(headers), render };
              return render(request, status, headers, fresh, loadContext);
            },
          },
        },
      };
    },
  },
});

const token = (await app.inject({ method: "GET", url: "/api/get_csrf_token/" })).json<{ csrftoken: string }>().csrftoken;
const login = await app.inject({
  method: "POST",
  url: "/api/Users/login/",
  headers: { "content-type": "application/json", "x-csrftoken": token, cookie: `csrftoken=${token}` },
  payload: JSON.stringify({ username: "demo", password: "demo12345" }),
});
const session = String(login.headers["set-cookie"] ?? "").match(/sessionid=[^;]+/)?.[0];
if (!session) throw new Error(`baseline-tree: the demo reader could not sign in (${login.statusCode})`);
const page = await app.inject({ method: "GET", url: articlePath!, headers: { cookie: session } });
if (page.statusCode !== 200 || !captured) throw new Error(`baseline-tree: ${articlePath} answered ${page.statusCode}`);
const { context, handoff, status, headers, render } = captured;
const sent = Object.fromEntries(
  [...Object.entries(page.headers)]
    .filter(([name]) => !["date", "connection", "keep-alive", "transfer-encoding", "content-length", "set-cookie"].includes(name))
    .map(([name, value]) => [name, String(value)]),
);

/** What our renderer reads from the load context: the nonce (components never see the load context). */
function loadContextWithNonce(nonce: string): RouterContextProvider {
  const provider = new RouterContextProvider();
  provider.set(appContext, { nonce } as AppContext);
  return provider;
}

const url = `http://localhost${articlePath}`;
async function renderOnce(): Promise<Buffer> {
  const nonce = randomBytes(16).toString("base64");
  const response = await render(
    new Request(url),
    status,
    new Headers(headers),
    { ...context, serverHandoffStream: streamOf(handoff) },
    loadContextWithNonce(nonce),
  );
  return Buffer.from(await response.arrayBuffer());
}

const sample = await renderOnce();
console.error(`  (tree baseline: our page ${Buffer.byteLength(page.body)} bytes, the baseline's ${sample.length})`);

createServer((_request, response) => {
  renderOnce().then(
    (body) => {
      response.writeHead(200, sent);
      response.end(body);
    },
    (error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    },
  );
}).listen(Number(port), "127.0.0.1", () => process.send?.("ready"));
