import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServer, stop } from "./global-setup.ts";
import { findHole } from "./captcha-solver.ts";

const dataDir = mkdtempSync(path.join(tmpdir(), "circles-process-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Signs up through the API, solving the slider puzzle first (the server runs with CAPTCHA on). */
async function register(baseURL: string, username: string) {
  const token = ((await (await fetch(`${baseURL}/api/get_csrf_token/`)).json()) as { csrftoken: string }).csrftoken;
  const headers = { "content-type": "application/json", "x-csrftoken": token, cookie: `csrftoken=${token}` };
  const puzzle = (await (await fetch(`${baseURL}/api/captcha/`)).json()) as {
    token: string;
    background: string;
    piece: string;
    piece_y: number;
  };
  const x = await findHole(puzzle.background, puzzle.piece, puzzle.piece_y);
  const verified = await fetch(`${baseURL}/api/captcha/verify/`, {
    method: "POST",
    headers,
    body: JSON.stringify({ token: puzzle.token, x }),
  });
  expect(verified.status).toBe(204);
  return fetch(`${baseURL}/api/Users/register/`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      username,
      email: `${username}@example.com`,
      password: "secret123",
      confirm_password: "secret123",
      gender: "male",
      birthday: "1990-01-01",
      country: "CN",
      captcha: puzzle.token,
    }),
  });
}

/** Each test starts real servers, which takes long on a busy machine (see waitUntilServing). */
const serverTestTimeout = 400_000;

describe("the server process", () => {
  it(
    "refuses to open an embedded store another server holds, with a clear message",
    async () => {
      const { server } = await startServer(dataDir);
      try {
        const second = spawn(process.execPath, ["server/main.ts"], {
          env: { ...process.env, NODE_ENV: "production", PORT: "0", DATA_DIR: dataDir, DATABASE_URL: "" },
          stdio: ["ignore", "ignore", "pipe"],
        });
        let stderr = "";
        second.stderr!.on("data", (chunk) => (stderr += chunk));
        const code = await new Promise<number | null>((resolve) => second.once("exit", resolve));
        expect(code).toBe(1);
        expect(stderr).toContain(`Another Circles server is already using the data directory ${dataDir}`);
      } finally {
        await stop(server);
      }
    },
    serverTestTimeout,
  );

  it(
    "stops cleanly on SIGTERM, keeping every acknowledged write and releasing the store",
    async () => {
      const first = await startServer(dataDir);
      const created = await register(first.baseURL, "kept_user");
      expect(created.status).toBe(201);
      const exit = new Promise<number | null>((resolve) => first.server.once("exit", resolve));
      await stop(first.server);
      expect(await exit).toBe(0);

      const second = await startServer(dataDir);
      try {
        const again = await register(second.baseURL, "kept_user");
        expect(again.status).toBe(409);
        expect(((await again.json()) as { code: string }).code).toBe("username_email_exist");
      } finally {
        await stop(second.server);
      }
    },
    serverTestTimeout,
  );
});
