import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import autocannon from "autocannon";

/**
 * `npm run bench -- --scale`: the same pages at two sizes of data, side by side. Two PostgreSQL
 * databases filled by `npm run seed:scale` (factor 0.01 and factor 1; names from
 * BENCH_SCALE_SMALL_URL and BENCH_SCALE_LARGE_URL, defaults below), one server process on each
 * (`NODE_ENV=production`, `CAPTCHA=off`), the scale reader signed in on both. Each case is loaded
 * on the small one, then on the large one (autocannon, `BENCH_SCALE_CONNECTIONS` connections,
 * `BENCH_WARMUP_SECONDS` not counted, then `BENCH_SECONDS`), and printed with the large/small
 * ratio of requests per second. Goal (issue 19): every case at factor 1 within 1.5× of its cost at
 * 0.01 (ratio ≥ 0.67), signed-in pages ≥ 100 requests/s on one process. `--only <text>` (repeatable)
 * runs only the cases whose name contains it.
 */
const root = path.resolve(import.meta.dirname, "..");
const duration = Number(process.env.BENCH_SECONDS ?? 8);
const warmup = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const connections = Number(process.env.BENCH_SCALE_CONNECTIONS ?? 10);
const databases = {
  small: process.env.BENCH_SCALE_SMALL_URL ?? "postgres://postgres@127.0.0.1:5432/scale_001",
  large: process.env.BENCH_SCALE_LARGE_URL ?? "postgres://postgres@127.0.0.1:5432/scale_1",
};
const reader = { username: "scale_u1", password: "scale12345" };

interface Measured {
  rps: number;
  /** autocannon has no p95: its p97.5, an upper bound of it. */
  p97_5: number;
  p99: number;
  errors: number;
  bytes: number;
}

export const children: ChildProcess[] = [];
process.on("exit", () => children.forEach((child) => child.kill("SIGKILL")));

export async function startServer(port: number, databaseUrl: string): Promise<string> {
  const site = `http://127.0.0.1:${port}`;
  const child = fork(path.join(root, "server/main.ts"), [], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATABASE_URL: databaseUrl, NODE_ENV: "production", CAPTCHA: "off" },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the server on ${databaseUrl} exited with ${code}`)));
    const poll = async () => {
      try {
        if ((await fetch(`${site}/build-manifest.json`)).ok) return resolve();
      } catch {
        // not yet
      }
      setTimeout(poll, 300);
    };
    void poll();
  });
  return site;
}

export async function signIn(site: string): Promise<string> {
  const token = (await (await fetch(`${site}/api/get_csrf_token/`)).json()) as { csrftoken: string };
  const login = await fetch(`${site}/api/Users/login/`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-csrftoken": token.csrftoken, cookie: `csrftoken=${token.csrftoken}` },
    body: JSON.stringify(reader),
  });
  const session = login.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith("sessionid="))
    ?.split(";")[0];
  if (!session) throw new Error(`${site}: could not sign in as ${reader.username} (${login.status}); seed with npm run seed:scale first`);
  return session;
}

async function load(url: string, headers: Record<string, string>): Promise<Measured> {
  if (warmup > 0) await autocannon({ url, connections, duration: warmup, headers });
  const result = await autocannon({ url, connections, duration, headers });
  return {
    rps: result.requests.average,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
    bytes: result.throughput.average / Math.max(result.requests.average, 1),
  };
}

interface Case {
  name: string;
  /** The path on a server (cases whose path depends on the data find it first). */
  path: (site: string, session: string) => Promise<string>;
  signedIn: boolean;
  /**
   * A document whose size is bounded rather than fixed (a paged sitemap holds 1,050 URLs at 0.01
   * and 10,000 at 1): compared by bytes per second, the cost per URL.
   */
  byBytes?: boolean;
  /** Also judged by latency: p95 (autocannon's p97.5, an upper bound) ≤ 50 ms at factor 1. */
  latency?: boolean;
}

const fixed = (value: string) => async () => value;

/** The newest article of the Mathematics circle on that server (the home feed mixes questions, answers and books in). */
export async function newestWriting(site: string, session: string): Promise<string> {
  const html = await (await fetch(`${site}/circles/2`, { headers: { cookie: session } })).text();
  const link = /\/circles\/\d+\/(?:writing|posts)\/\d+(?=")/.exec(html)?.[0];
  if (!link) throw new Error(`${site}: no writing on /circles/2`);
  return link;
}

const cases: Case[] = [
  { name: "signed-in home, Latest", path: fixed("/"), signedIn: true },
  { name: "signed-in home, Hot", path: fixed("/?tab=hot"), signedIn: true },
  { name: "signed-in home, Follow", path: fixed("/?tab=follow"), signedIn: true },
  { name: "signed-in circle page (Mathematics, articles)", path: fixed("/circles/2"), signedIn: true },
  { name: "signed-in reading page (newest writing)", path: newestWriting, signedIn: true },
  { name: "signed-in profile (activity)", path: fixed("/profile/scale_u2"), signedIn: true },
  { name: "signed-in profile (articles)", path: fixed("/profile/scale_u2?tab=articles"), signedIn: true },
  { name: "signed-in circle tree /circles", path: fixed("/circles"), signedIn: true },
  { name: "signed-in entry search API", path: fixed("/api/encyclopedia/entries/?q=pythagor"), signedIn: true },
  // Search (issue 25): p95 ≤ 50 ms at factor 1, beside a trivial indexed lookup (one writing by id) on the same database.
  { name: "trivial indexed lookup: GET /api/writings/1/", path: fixed("/api/writings/1/"), signedIn: true, latency: true },
  {
    name: "search API, Chinese (勾股定理)",
    path: fixed(`/api/search/?q=${encodeURIComponent("勾股定理")}`),
    signedIn: true,
    latency: true,
  },
  {
    name: "search API, Chinese two characters (灯塔)",
    path: fixed(`/api/search/?q=${encodeURIComponent("灯塔")}`),
    signedIn: true,
    latency: true,
  },
  { name: "search API, English (caching)", path: fixed("/api/search/?q=caching"), signedIn: true, latency: true },
  // Rare words too (issue 40): a title's serial matches a handful of documents, which the ordered
  // walk that suits common words would read the whole index to find.
  { name: "search API, rare (a title's serial, 4711)", path: fixed("/api/search/?q=4711"), signedIn: true, latency: true },
  {
    name: "search API, common and rare words (规模测试文章 4711)",
    path: fixed(`/api/search/?q=${encodeURIComponent("规模测试文章 4711")}`),
    signedIn: true,
    latency: true,
  },
  { name: "search API, pinyin results (gougu)", path: fixed("/api/search/?q=gougu"), signedIn: true, latency: true },
  { name: "search suggestions, pinyin (gougu)", path: fixed("/api/search/suggest/?q=gougu"), signedIn: true, latency: true },
  { name: "anonymous /sitemap.xml (index)", path: fixed("/sitemap.xml"), signedIn: false },
  { name: "anonymous /sitemap/writings-1.xml (per byte)", path: fixed("/sitemap/writings-1.xml"), signedIn: false, byBytes: true },
];

const format = (measured: Measured) =>
  `${measured.rps.toFixed(0).padStart(6)} req/s, p97.5 ${String(measured.p97_5).padStart(5)} ms, p99 ${String(measured.p99).padStart(5)} ms, ${(measured.bytes / 1024).toFixed(0).padStart(5)} KiB${measured.errors ? `, ${measured.errors} errors` : ""}`;

export async function runScaleBench(): Promise<void> {
  const small = await startServer(3911, databases.small);
  const large = await startServer(3912, databases.large);
  const sessions = { small: await signIn(small), large: await signIn(large) };
  console.log(
    `scale bench: ${connections} connections, ${warmup} s warm-up + ${duration} s per case; ratio = factor 1 / factor 0.01 (req/s)`,
  );
  // `--only <text>` (repeatable): the cases whose name contains one of them, e.g. `--only home --only "entry search"`.
  const only = process.argv.flatMap((arg, index) => (process.argv[index - 1] === "--only" ? [arg] : []));
  for (const scaleCase of cases.filter((candidate) => only.length === 0 || only.some((text) => candidate.name.includes(text)))) {
    const measured: Measured[] = [];
    for (const [site, session] of [
      [small, sessions.small],
      [large, sessions.large],
    ] as const) {
      const target = await scaleCase.path(site, session);
      const headers: Record<string, string> = scaleCase.signedIn ? { cookie: session } : {};
      const check = await fetch(`${site}${target}`, { headers });
      await check.arrayBuffer();
      if (!check.ok) throw new Error(`${site}${target} answered ${check.status}`);
      measured.push(await load(`${site}${target}`, headers));
    }
    const [atSmall, atLarge] = measured as [Measured, Measured];
    const ratio = scaleCase.byBytes ? (atLarge.rps * atLarge.bytes) / (atSmall.rps * atSmall.bytes) : atLarge.rps / atSmall.rps;
    const fastEnough = !scaleCase.latency || atLarge.p97_5 <= 50;
    const verdict = ratio >= 1 / 1.5 && (!scaleCase.signedIn || atLarge.rps >= 100) && fastEnough ? "✔" : "✘";
    const line = `${scaleCase.name.padEnd(48)} | 0.01: ${format(atSmall)} | 1: ${format(atLarge)} | ratio ${ratio.toFixed(2)} ${verdict}`;
    console.log(line);
  }
  for (const child of children) child.kill("SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, 500));
}
