import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { ensureBuild } from "./build-if-needed.ts";

/**
 * `npm run screenshots`: every page type in both languages, on a desktop and a phone, in light and
 * dark, as PNGs in `screenshots/` (git-ignored), so anyone can look at every page after a change.
 * Starts the built server on a temporary embedded store (seeded with the demo content) and signs in
 * as the demo account for the signed-in pages.
 */
const root = path.resolve(import.meta.dirname, "..");
const outDir = path.join(root, "screenshots");

/** The sixteen page types, by name, on the demo content (features/*\/seed.ts). */
const screenshotPages: readonly { name: string; path: string }[] = [
  { name: "home", path: "/" },
  { name: "circle", path: "/circles/2" },
  { name: "article", path: "/circles/2/writing/1" },
  { name: "question", path: "/community/questions/1" },
  { name: "entry", path: "/circles/2/encyclopedia/1" },
  { name: "history", path: "/circles/2/encyclopedia/1/history" },
  { name: "search", path: "/search?q=%E6%95%B0%E5%AD%A6" },
  { name: "ranking", path: "/ranking" },
  { name: "wallet", path: "/wallet" },
  { name: "topup", path: "/wallet/sinecoin_recharge" },
  { name: "shop", path: "/shop" },
  { name: "messages", path: "/messages" },
  { name: "chat", path: "/messages/chat" },
  { name: "creator", path: "/creator" },
  { name: "profile", path: "/profile/creator" },
  { name: "account", path: "/account/home" },
];

const devices = {
  desktop: { viewport: { width: 1280, height: 900 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
} as const;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function startServer(dataDir: string): Promise<{ server: ChildProcess; baseURL: string }> {
  const port = await freePort();
  const server = spawn(process.execPath, ["server/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      CAPTCHA: "off",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const baseURL = `http://127.0.0.1:${port}`;
  // Migrating and seeding a fresh store takes a while on a busy machine.
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (server.exitCode !== null) throw new Error(`The server stopped (exit ${server.exitCode})`);
    try {
      if ((await fetch(`${baseURL}/build-manifest.json`)).ok) return { server, baseURL };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("The server did not start");
}

async function signIn(context: BrowserContext): Promise<void> {
  const { csrftoken } = (await (await context.request.get("/api/get_csrf_token/")).json()) as { csrftoken: string };
  const response = await context.request.post("/api/Users/login/", {
    headers: { "x-csrftoken": csrftoken },
    data: { username: "demo", password: "demo12345" },
  });
  if (!response.ok()) throw new Error(`Signing in as demo failed: ${response.status()} ${await response.text()}`);
}

/** Page names given on the command line (`npm run screenshots -- wallet topup`) limit the run to them. */
const only = process.argv.slice(2);

async function main() {
  await ensureBuild();
  const dataDir = mkdtempSync(path.join(tmpdir(), "circles-screenshots-"));
  const { server, baseURL } = await startServer(dataDir);
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    mkdirSync(outDir, { recursive: true });
    for (const [deviceName, device] of Object.entries(devices)) {
      for (const colorScheme of ["light", "dark"] as const) {
        for (const language of ["zh", "en"] as const) {
          const context = await browser.newContext({
            ...device,
            baseURL,
            colorScheme,
            locale: language === "en" ? "en" : "zh-CN",
            timezoneId: "Asia/Shanghai",
          });
          await signIn(context);
          const page = await context.newPage();
          for (const { name, path: pagePath } of screenshotPages.filter((page) => only.length === 0 || only.includes(page.name))) {
            await page.goto((language === "en" ? "/en" : "") + (pagePath === "/" && language === "en" ? "" : pagePath));
            await page.waitForLoadState("networkidle").catch(() => undefined);
            const file = path.join(outDir, `${name}-${language}-${deviceName}-${colorScheme}.png`);
            await page.screenshot({ path: file, fullPage: true });
            console.log(path.relative(root, file));
          }
          await context.close();
        }
      }
    }
  } finally {
    await browser.close();
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
