import { chromium } from "playwright-core";
const B = "http://127.0.0.1:3917";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const context = await browser.newContext({ baseURL: B, viewport: { width: 1200, height: 900 } });
const page = await context.newPage();
const csrf = await (await context.request.get("/api/get_csrf_token/")).json();
const login = await context.request.post("/api/Users/login/", { data: { username: "demo", password: "demo12345" }, headers: { "x-csrftoken": csrf.csrftoken } });
console.log("login", login.status());
for (const [name, path] of JSON.parse(process.argv[2])) {
  const response = await page.goto(path);
  console.log(name, response.status(), page.url());
  await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: true });
}
await browser.close();
