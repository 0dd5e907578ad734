import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { ensureBuild } from "../scripts/build-if-needed.ts";
import { prepareTipPairs, tipBurst, tipBurstManyPairs } from "./tip-burst.ts";
import { prepareQuestionPage } from "./question-data.ts";

/**
 * `npm run bench`: each measurement against a baseline run side by side in the same run.
 * 1. cached anonymous `/` and a demo article vs bare node:http serving the same bytes;
 * 2. `GET /api/Users/LoginAuth/` (signed in: a session lookup) vs a bare Fastify hello route;
 * 2b. a burst of tips from one reader to one book, and across 50 reader → author pairs
 *    (bench/tip-burst.ts): tips per second and p99;
 * 3. the demo article rendered uncached for a signed-in reader vs our document renderer rendering
 *    the same route tree with the same data over node:http (bench/baseline-tree.ts), and, for
 *    reference, vs React's `renderToString` of its flattened markup (bench/baseline-react.ts).
 * 4. a question page with 30 answers (bench/question-data.ts), cached anonymous and signed in, against
 *    the same baselines as the article.
 * 5. the live stream (bench/streams.ts): 5,000 concurrent streams on one process, memory per
 *    stream, and the p99 from a comment to its recipient's notification with all of them connected.
 * 6. an encyclopedia entry with 40 references, anonymous (cached) and signed in (uncached).
 * With `--scale`, bench/scale.ts measures pages at factor 0.01 and 1 of generated data instead;
 * with `--processes 2`, bench/processes.ts compares one server process with two on one PostgreSQL;
 * with `--replica`, bench/replica.ts measures the lagging reads on a primary with and without a streaming replica;
 * with `--ads`, bench/ads.ts measures ad events per second and the ad selection;
 * with `--streams`, only the live stream case runs; with `--tips`, only the tip bursts (2b); with
 * `--question`, only the signed-in question page (4).
 * Prints req/s, p99 and the ratio. The server runs on the embedded store in a temporary folder.
 */
const duration = Number(process.env.BENCH_SECONDS ?? 8);
const connections = 50;
const root = path.resolve(import.meta.dirname, "..");

await ensureBuild();
// `npm run bench -- --scale`: the pages at two sizes of data instead (bench/scale.ts).
if (process.argv.includes("--scale")) {
  const { runScaleBench } = await import("./scale.ts");
  await runScaleBench();
  process.exit(0);
}
// `npm run bench -- --processes 2`: one server process against two on one PostgreSQL (bench/processes.ts).
if (process.argv.includes("--processes")) {
  const { runProcessesBench } = await import("./processes.ts");
  await runProcessesBench();
  process.exit(0);
}
// `npm run bench -- --replica`: a primary and a streaming replica of its own (bench/replica.ts).
if (process.argv.includes("--replica")) {
  const { runReplicaBench } = await import("./replica.ts");
  await runReplicaBench();
  process.exit(0);
}
// `npm run bench -- --views`: view beacons and the creator's 365-day analysis (bench/views.ts).
if (process.argv.includes("--views")) {
  const { runViewsBench } = await import("./views.ts");
  await runViewsBench();
  process.exit(0);
}
// `npm run bench -- --ads`: ad events per second and the serving index's selection (bench/ads.ts).
if (process.argv.includes("--ads")) {
  const { runAdsBench } = await import("./ads.ts");
  await runAdsBench();
  process.exit(0);
}
if (process.argv.includes("--streams")) {
  const { runStreamBench } = await import("./streams.ts");
  await runStreamBench();
  process.exit(0);
}
const work = mkdtempSync(path.join(tmpdir(), "circles-bench-"));
const children: ChildProcess[] = [];
process.on("exit", () => children.forEach((child) => child.kill("SIGKILL")));

function start(script: string, args: string[], env: Record<string, string> = {}, readyUrl?: string): Promise<void> {
  const child = fork(path.join(root, script), args, { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit", "ipc"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
    if (!readyUrl) return child.once("message", () => resolve());
    const poll = async () => {
      try {
        if ((await fetch(readyUrl)).ok) return resolve();
      } catch {
        // not yet
      }
      setTimeout(poll, 200);
    };
    void poll();
  });
}

/** Each server first gets `warmup` seconds of the same load, not counted: the JIT compiles the hot paths of ours and the baselines alike. */
const warmup = Number(process.env.BENCH_WARMUP_SECONDS ?? 4);

async function load(url: string, headers: Record<string, string> = {}) {
  if (warmup > 0) await autocannon({ url, connections, duration: warmup, headers });
  const result = await autocannon({ url, connections, duration, headers });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

function report(name: string, ours: Awaited<ReturnType<typeof load>>, baseline: Awaited<ReturnType<typeof load>>) {
  console.log(
    `${name}: ours ${ours.rps.toFixed(0)} req/s (p99 ${ours.p99} ms, ${ours.errors} errors) | baseline ${baseline.rps.toFixed(0)} req/s (p99 ${baseline.p99} ms) | ratio ${(ours.rps / baseline.rps).toFixed(2)}`,
  );
}

const site = "http://127.0.0.1:3901";
/** The sandbox's notifies are signed with this, so the tip burst can top up through them. */
const sandboxSecret = "bench-sandbox-secret";
const questionLink = await prepareQuestionPage(work);
// `npm run bench -- --question`: only the signed-in question page against its baselines (4).
const questionOnly = process.argv.includes("--question");
const tipPairs = questionOnly ? [] : await prepareTipPairs(work);
// CAPTCHA off: the benchmark signs in through the API without a person to solve the slider puzzle.
await start(
  "server/main.ts",
  [],
  {
    PORT: "3901",
    HOST: "127.0.0.1",
    DATA_DIR: work,
    NODE_ENV: "production",
    DATABASE_URL: "",
    CAPTCHA: "off",
    PAYMENT_PROVIDER: "sandbox",
    // The benchmark tops up 50,000 sinecoin at once: beyond the free daily cap.
    FREE_TOPUP_DAILY_LIMIT: "1000000",
    PAYMENT_SANDBOX_SECRET: sandboxSecret,
  },
  `${site}/build-manifest.json`,
);

// 0. JavaScript a first visit loads (brotli, as served), against the 120 KB budget: the home page
// and a demo article with math and code (the editor's CodeMirror must never be among them).
async function firstLoadJavaScript(page: string): Promise<void> {
  const html = await (await fetch(`${site}${page}`)).text();
  // What the browser loads: the modulepreload links and the entry the inline script imports (the
  // inline route manifest also names modules of other routes, which load only on navigation).
  const preloaded = [...html.matchAll(/<link rel="modulepreload" href="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
  const imported = [...html.matchAll(/import\(?\s*"(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
  const scripts = [...new Set([...preloaded, ...imported])];
  let bytes = 0;
  for (const script of scripts) {
    // fetch() decodes brotli; Content-Length tells the bytes actually sent.
    const response = await fetch(`${site}${script}`, { headers: { "accept-encoding": "br" } });
    bytes += Number(response.headers.get("content-length") ?? 0);
    await response.arrayBuffer();
  }
  console.log(`first-load JavaScript on ${page}: ${scripts.length} files, ${(bytes / 1024).toFixed(0)} KiB brotli (budget 120 KiB)`);
}
// The demo article to measure: among the writings the sitemap lists (the home page's first page
// is full of the tip bursts' and the question page's own data), the one with math and code
// (KaTeX and Shiki markup), else the one with most of it (the demo data's math article).
async function findArticle(): Promise<string | undefined> {
  const sitemap = await (await fetch(`${site}/sitemap/writings-1.xml`)).text();
  const links = [...new Set([...sitemap.matchAll(/<loc>[^<]*?(\/circles\/\d+\/writing\/\d+)<\/loc>/g)].map((match) => match[1]!))];
  let best: { link: string; score: number } | undefined;
  for (const link of links) {
    const html = await (await fetch(`${site}${link}`)).text();
    const math = (html.match(/class="katex"/g) ?? []).length;
    const code = (html.match(/class="shiki/g) ?? []).length;
    const score = (math > 0 && code > 0 ? 10_000 : 0) + math + code;
    if (score > (best?.score ?? 0)) best = { link, score };
    console.log(`  ${link}: ${math} formulas, ${code} code blocks`);
  }
  return best?.link;
}
// `npm run bench -- --tips`: only the tip bursts (2b).
const tipsOnly = process.argv.includes("--tips");
const articleLink = tipsOnly || questionOnly ? undefined : await findArticle();
if (!tipsOnly && !questionOnly) {
  console.log(`article measured: ${articleLink ?? "none found"}`);
  await firstLoadJavaScript("/");
  if (articleLink) await firstLoadJavaScript(articleLink);
  await firstLoadJavaScript(questionLink);
}

/** A cached anonymous page against bare node:http sending exactly its bytes, headers included. */
async function cachedAgainstBaseline(page: string, port: number): Promise<void> {
  await (await fetch(`${site}${page}`)).arrayBuffer();
  const warm = await fetch(`${site}${page}`, { headers: { "accept-encoding": "identity" } });
  const file = path.join(work, `page-${port}.html`);
  writeFileSync(file, Buffer.from(await warm.arrayBuffer()));
  const headers = Object.fromEntries(
    [...warm.headers].filter(([name]) => !["date", "connection", "keep-alive", "transfer-encoding"].includes(name)),
  );
  await start("bench/baseline-http.ts", [String(port), file, JSON.stringify(headers)]);
  report(`anonymous ${page} (cached)`, await load(`${site}${page}`), await load(`http://127.0.0.1:${port}/`));
}

// 1. Cached anonymous pages: home and the article.
if (!tipsOnly && !questionOnly) {
  await cachedAgainstBaseline("/", 3902);
  if (articleLink) await cachedAgainstBaseline(articleLink, 3904);
  await cachedAgainstBaseline(questionLink, 3907);
}

// 2. The signed-in auth call against a bare Fastify route.
const token = (await (await fetch(`${site}/api/get_csrf_token/`)).json()) as { csrftoken: string };
const login = await fetch(`${site}/api/Users/login/`, {
  method: "POST",
  headers: { "content-type": "application/json", "x-csrftoken": token.csrftoken, cookie: `csrftoken=${token.csrftoken}` },
  body: JSON.stringify({ username: "demo", password: "demo12345" }),
});
const session = login.headers
  .getSetCookie()
  .find((cookie) => cookie.startsWith("sessionid="))!
  .split(";")[0]!;
if (questionOnly) {
  await signedInAgainstBaselines(questionLink, { tree: 3909, react: 3908 }, (dataDir) => prepareQuestionPage(dataDir));
  for (const child of children) child.kill("SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, 500));
  rmSync(work, { recursive: true, force: true });
  process.exit(0);
}
if (!tipsOnly) {
  await start("bench/baseline-fastify.ts", ["3903"]);
  const authOurs = await load(`${site}/api/Users/LoginAuth/`, { cookie: session });
  const authBaseline = await load("http://127.0.0.1:3903/hello");
  report("GET /api/Users/LoginAuth/ (signed in)", authOurs, authBaseline);
}

// 2b. The tip bursts (bench/tip-burst.ts): tips per second and p99 through the ledger's constraint,
// one pair (every tip on the same two rows), then many pairs.
await tipBurst(site, session, sandboxSecret, duration);
await tipBurstManyPairs(site, tipPairs, duration);
if (tipsOnly) {
  for (const child of children) child.kill("SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, 500));
  rmSync(work, { recursive: true, force: true });
  process.exit(0);
}

// 3. The article as a signed-in reader gets it: never from the page cache (a session cookie skips
// it), so every request runs the session lookup, loader, queries and React render. Two baselines:
// the goal's (bench/baseline-tree.ts: our own document renderer rendering the same route tree with
// the same data, captured once in its own process on its own copy of the demo data) and, for
// reference, React's renderToString of the page flattened to host elements (bench/baseline-react.ts).
/** A page as a signed-in reader gets it (uncached) against the same tree rendered and renderToString of its markup. */
async function signedInAgainstBaselines(
  page: string,
  ports: { tree: number; react: number },
  prepare?: (dataDir: string) => Promise<unknown>,
) {
  const signedIn = await fetch(`${site}${page}`, { headers: { cookie: session, "accept-encoding": "identity" } });
  const html = await signedIn.text();
  if (!signedIn.ok || !html.includes('name="csrftoken"'))
    throw new Error(`${page} is not the signed-in reader's page (${signedIn.status})`);
  const file = path.join(work, `page-signed-in-${ports.tree}.html`);
  writeFileSync(file, html);
  const skip = ["date", "connection", "keep-alive", "transfer-encoding", "content-length", "set-cookie"];
  const headers = Object.fromEntries([...signedIn.headers].filter(([name]) => !skip.includes(name)));
  const treeData = path.join(work, `tree-baseline-${ports.tree}`);
  await prepare?.(treeData);
  await start("bench/baseline-tree.ts", [String(ports.tree), page], {
    NODE_ENV: "production",
    DATA_DIR: treeData,
    DATABASE_URL: "",
    CAPTCHA: "off",
    PORT: "0",
  });
  await start("bench/baseline-react.ts", [String(ports.react), file, JSON.stringify(headers)], { NODE_ENV: "production" });
  const ours = await load(`${site}${page}`, { cookie: session });
  report(`signed-in ${page} (uncached) vs the same tree rendered (goal >= 0.6)`, ours, await load(`http://127.0.0.1:${ports.tree}/`));
  report(`signed-in ${page} (uncached) vs renderToString of its flattened markup`, ours, await load(`http://127.0.0.1:${ports.react}/`));
}
if (articleLink) await signedInAgainstBaselines(articleLink, { tree: 3906, react: 3905 });
// 4. The question page with 30 answers (its baseline tree gets the same generated question).
await signedInAgainstBaselines(questionLink, { tree: 3909, react: 3908 }, (dataDir) => prepareQuestionPage(dataDir));

// 6. An encyclopedia entry with 40 cited references (the reference list, back-links and "Cite
// this"): anonymous (cached, against node:http sending its bytes) and signed in (uncached, the
// same baseline for scale).
{
  const references = Array.from({ length: 40 }, (_, index) => ({
    label: `r${index + 1}`,
    authors: [`Author ${index + 1}`, `Second Author ${index + 1}`],
    title: `Reference number ${index + 1}`,
    container: "Journal of Benchmarks",
    year: "2020",
    pages: `${index + 1}-${index + 9}`,
    url: `https://example.org/reference/${index + 1}`,
  }));
  const content = references
    .map((reference, index) => `Paragraph ${index + 1} states a fact [@${reference.label}, p. ${index + 2}].`)
    .join("\n\n");
  // The session's own CSRF token (signing in issues a new one).
  const csrf = ((await (await fetch(`${site}/api/get_csrf_token/`, { headers: { cookie: session } })).json()) as { csrftoken: string })
    .csrftoken;
  const created = await fetch(`${site}/api/circles/1/encyclopedia/entries/`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-csrftoken": csrf, cookie: `csrftoken=${csrf}; ${session}` },
    body: JSON.stringify({ name: `Benchmark entry ${Date.now()}`, language: "en", content, references }),
  });
  if (created.status !== 201) throw new Error(`the benchmark entry was refused (${created.status}): ${await created.text()}`);
  const entryPath = `/en${((await created.json()) as { url: string }).url}`;
  await firstLoadJavaScript(entryPath);
  await cachedAgainstBaseline(entryPath, 3915);
  const signedIn = await load(`${site}${entryPath}`, { cookie: session });
  report(
    `signed-in ${entryPath} with 40 references (uncached) vs node:http sending the anonymous bytes`,
    signedIn,
    await load("http://127.0.0.1:3915/"),
  );
}

for (const child of children) child.kill("SIGTERM");
await new Promise((resolve) => setTimeout(resolve, 500));
rmSync(work, { recursive: true, force: true });

// 4. The live stream with 5,000 connected (its own server and data).
const { runStreamBench } = await import("./streams.ts");
await runStreamBench();
process.exit(0);
