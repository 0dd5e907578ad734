import autocannon from "autocannon";
import { children, newestWriting, signIn, startServer } from "./scale.ts";

/**
 * `npm run bench -- --processes 2`: does a second server process on the same PostgreSQL add
 * throughput, or does shared state (the database, NOTIFY, the shared request limits) cap it?
 * On the factor-0.01 scale database (BENCH_PROCESSES_URL, default scale_001; fill it with
 * `DATABASE_URL=postgres://postgres@127.0.0.1:5432/scale_001 npm run seed:scale -- --factor 0.01`),
 * each signed-in case is loaded on one process with `BENCH_PROCESSES_CONNECTIONS` connections, then
 * on two processes at once with the connections split between them; the ratio is the two
 * processes' summed requests per second over the one's. Goal (issue 40): ≥ 1.7. Then a like
 * through process one must show on process two's next request (the page caches drop by NOTIFY).
 */
const duration = Number(process.env.BENCH_SECONDS ?? 8);
const warmup = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const connections = Number(process.env.BENCH_PROCESSES_CONNECTIONS ?? 20);
const databaseUrl = process.env.BENCH_PROCESSES_URL ?? "postgres://postgres@127.0.0.1:5432/scale_001";

async function requestsPerSecond(url: string, cookie: string, share: number): Promise<{ rps: number; errors: number }> {
  const result = await autocannon({ url, connections: share, duration, headers: { cookie } });
  return { rps: result.requests.average, errors: result.errors + result.non2xx + result.timeouts };
}

async function warm(urls: string[], cookie: string): Promise<void> {
  if (warmup > 0)
    await Promise.all(
      urls.map((url) => autocannon({ url, connections: Math.max(1, connections / urls.length), duration: warmup, headers: { cookie } })),
    );
}

/** A writing's like button, as the signed-in reader's page shows it. */
async function likePressed(site: string, path: string, cookie: string): Promise<boolean> {
  const html = await (await fetch(`${site}${path}`, { headers: { cookie } })).text();
  const button = /<button[^>]*data-testid="like"[^>]*>/.exec(html)?.[0] ?? "";
  return button.includes('aria-pressed="true"');
}

async function setLike(site: string, cookie: string, writingId: string, like: boolean): Promise<void> {
  const token = (await (await fetch(`${site}/api/get_csrf_token/`, { headers: { cookie } })).json()) as { csrftoken: string };
  const headers = { "content-type": "application/json", "x-csrftoken": token.csrftoken, cookie: `${cookie}; csrftoken=${token.csrftoken}` };
  const url = `${site}/api/subjects/writing/${writingId}/reaction/`;
  const response = like
    ? await fetch(url, { method: "PUT", headers, body: JSON.stringify({ reaction: "like" }) })
    : await fetch(url, { method: "DELETE", headers: { "x-csrftoken": headers["x-csrftoken"], cookie: headers.cookie } });
  if (!response.ok) throw new Error(`${like ? "like" : "unlike"} answered ${response.status}: ${await response.text()}`);
}

export async function runProcessesBench(): Promise<void> {
  const one = await startServer(3921, databaseUrl);
  const two = await startServer(3922, databaseUrl);
  const session = await signIn(one);
  const reading = await newestWriting(one, session);
  const cases = [
    { name: "signed-in home, Latest", path: "/" },
    { name: "signed-in reading page", path: reading },
    { name: "signed-in circle page", path: "/circles/2" },
    { name: "signed-in session check API", path: "/api/Users/LoginAuth/" },
  ];
  console.log(
    `processes bench: ${connections} connections, ${warmup} s warm-up + ${duration} s per case; ratio = two processes / one (req/s)`,
  );
  for (const benchCase of cases) {
    await warm([`${one}${benchCase.path}`], session);
    const single = await requestsPerSecond(`${one}${benchCase.path}`, session, connections);
    const both = [`${one}${benchCase.path}`, `${two}${benchCase.path}`];
    await warm(both, session);
    const split = await Promise.all(both.map((url) => requestsPerSecond(url, session, connections / 2)));
    const summed = split.reduce((sum, measured) => sum + measured.rps, 0);
    const errors = single.errors + split.reduce((sum, measured) => sum + measured.errors, 0);
    const ratio = summed / single.rps;
    console.log(
      `${benchCase.name.padEnd(32)} | one: ${single.rps.toFixed(0).padStart(6)} req/s | two: ${summed.toFixed(0).padStart(6)} req/s | ratio ${ratio.toFixed(2)} ${ratio >= 1.7 ? "✔" : "✘"}${errors ? ` | ${errors} errors` : ""}`,
    );
  }
  // A like through process one, then the reader's next page on process two.
  const writingId = /\/(\d+)$/.exec(reading)![1]!;
  const before = await likePressed(two, reading, session);
  await setLike(one, session, writingId, !before);
  const after = await likePressed(two, reading, session);
  await setLike(one, session, writingId, before);
  console.log(`a like on process one shows on process two's next request: ${after !== before ? "✔" : "✘"}`);
  for (const child of children) child.kill("SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, 500));
}
