import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { embeddedDataPath, openEmbeddedDatabase } from "../server/db/client.ts";
import { seed } from "../server/db/seed.ts";
import { createSessionFor, createUser, createWriting } from "../tests/support/factories.ts";

/**
 * The live stream at scale (`npm run bench` runs it last; `npm run bench -- --streams` alone):
 * 5,000 concurrent `/apiv2/sse` streams of 5,000 users on one process (the server's resident memory
 * per stream), then, with all of them connected, the latency from a comment's POST to the new
 * notification arriving on its recipient's stream (p50, p99; goal p99 ≤ 100 ms). The users,
 * sessions and writings are written into the embedded store before the server opens it.
 */
const streamCount = Number(process.env.BENCH_STREAMS ?? 5000);
const samples = Number(process.env.BENCH_STREAM_SAMPLES ?? 200);
const port = 3907;
const site = `http://127.0.0.1:${port}`;
const root = path.resolve(import.meta.dirname, "..");

interface Prepared {
  listeners: { id: number; token: string }[];
  senders: string[];
  /** One writing per sample, each by one of the listeners (index into `listeners`). */
  writings: { id: number; author: number }[];
}

async function prepare(dataDir: string): Promise<Prepared> {
  const handle = await openEmbeddedDatabase(embeddedDataPath(dataDir));
  try {
    await handle.migrate();
    await seed(handle);
    const listeners: Prepared["listeners"] = [];
    for (let index = 0; index < streamCount; index++) {
      const user = await createUser(handle.db);
      listeners.push({ id: user.id, token: await createSessionFor(handle.db, user, true) });
    }
    const senders: string[] = [];
    const writings: Prepared["writings"] = [];
    for (let index = 0; index < samples; index++) {
      senders.push(await createSessionFor(handle.db, await createUser(handle.db), true));
      const author = Math.floor((index * streamCount) / samples);
      writings.push({ id: (await createWriting(handle.db, { id: listeners[author]!.id })).id, author });
    }
    return { listeners, senders, writings };
  } finally {
    await handle.close();
  }
}

function residentBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((row) => row.startsWith("VmRSS:"));
  return Number(/(\d+)/.exec(line ?? "")?.[1] ?? 0) * 1024;
}

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

/** Opens one stream; calls `onNotification` for each new notification it carries. */
function openStream(listener: { id: number; token: string }, onNotification: () => void): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${site}/apiv2/sse?user_id=${listener.id}`,
      { agent, headers: { cookie: `sessionid=${listener.token}` } },
      (response) => {
        if (response.statusCode !== 200) return reject(new Error(`stream answered ${response.statusCode}`));
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          if (chunk.includes('"sse_type":"notification"')) onNotification();
        });
        resolve(request);
      },
    );
    request.on("error", reject);
  });
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? 0;
}

export async function runStreamBench(): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), "circles-streams-"));
  let server: ChildProcess | undefined;
  const requests: http.ClientRequest[] = [];
  try {
    const started = Date.now();
    const prepared = await prepare(work);
    console.log(`streams: ${streamCount} users and ${samples} writings prepared in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    server = fork(path.join(root, "server/main.ts"), [], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: work,
        NODE_ENV: "production",
        DATABASE_URL: "",
        CAPTCHA: "off",
      },
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    for (;;) {
      try {
        if ((await fetch(`${site}/build-manifest.json`)).ok) break;
      } catch {
        // not yet
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // One stream opened and closed first, so what every stream shares is loaded before measuring.
    (await openStream(prepared.listeners[0]!, () => undefined)).destroy();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = residentBytes(server.pid!);

    const waiting = new Map<number, () => void>();
    const opening = Date.now();
    for (let index = 0; index < prepared.listeners.length; index += 100) {
      const batch = prepared.listeners.slice(index, index + 100);
      requests.push(...(await Promise.all(batch.map((listener) => openStream(listener, () => waiting.get(listener.id)?.())))));
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const after = residentBytes(server.pid!);
    console.log(
      `streams: ${requests.length} open in ${((Date.now() - opening) / 1000).toFixed(1)} s; server resident memory ${(before / 2 ** 20).toFixed(0)} MiB → ${(after / 2 ** 20).toFixed(0)} MiB, ${((after - before) / requests.length / 1024).toFixed(1)} KiB per stream`,
    );

    // A comment's POST to its notification on the author's stream, one after another, with every stream connected.
    const latencies: number[] = [];
    for (let index = 0; index < samples; index++) {
      const { id, author } = prepared.writings[index]!;
      const listener = prepared.listeners[author]!;
      const token = prepared.senders[index]!;
      const csrf = (await (await fetch(`${site}/api/get_csrf_token/`, { headers: { cookie: `sessionid=${token}` } })).json()) as {
        csrftoken: string;
      };
      const arrived = new Promise<void>((resolve) => waiting.set(listener.id, resolve));
      const sent = performance.now();
      const response = await fetch(`${site}/api/writings/${id}/comments/`, {
        method: "POST",
        headers: {
          cookie: `sessionid=${token}; csrftoken=${csrf.csrftoken}`,
          "x-csrftoken": csrf.csrftoken,
          "content-type": "application/json",
        },
        body: JSON.stringify({ body: `bench comment ${index}` }),
      });
      if (response.status !== 201) throw new Error(`comment answered ${response.status}: ${await response.text()}`);
      await Promise.race([arrived, new Promise((resolve) => setTimeout(resolve, 5000))]);
      latencies.push(performance.now() - sent);
      waiting.delete(listener.id);
    }
    console.log(
      `streams: comment POST → recipient's notification with ${requests.length} connected: p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms (goal p99 ≤ 100 ms; ${samples} samples)`,
    );
  } finally {
    for (const request of requests) request.destroy();
    server?.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 1000));
    rmSync(work, { recursive: true, force: true });
  }
}
