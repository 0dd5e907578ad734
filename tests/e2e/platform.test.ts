import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "node:http";
import { brotliDecompressSync } from "node:zlib";
import { baseURL, closeBrowser, launchBrowser, signedInVisitor } from "./browser.ts";

/** A raw GET (fetch would decode the body and hide the encoding). */
function rawGet(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseURL()}${path}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the platform in the running server", () => {
  beforeAll(launchBrowser);
  afterAll(closeBrowser);

  it("sends HTML compressed, rendered or from the page cache", async () => {
    const first = await rawGet("/about?compression-test", { "accept-encoding": "gzip, br" });
    const second = await rawGet("/about?compression-test", { "accept-encoding": "gzip, br" });
    for (const answer of [first, second]) {
      expect(answer.status).toBe(200);
      expect(answer.headers["content-encoding"]).toBe("br");
      expect(brotliDecompressSync(answer.body).toString("utf8")).toContain("<!DOCTYPE html>");
    }
    expect(second.headers["x-page-cache"]).toBe("hit");
    const plain = await rawGet("/about?compression-test", {});
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString("utf8")).toContain("<!DOCTYPE html>");
  });

  it("offers a signed-in browser without solving the puzzle (the run's reader account)", async () => {
    const { context, page } = await signedInVisitor();
    await page.goto("/account/home");
    expect(new URL(page.url()).pathname).toBe("/account/home");
    await expect(page.getByText("e2e_reader").first().isVisible()).resolves.toBe(true);
    await context.close();
  });
});
