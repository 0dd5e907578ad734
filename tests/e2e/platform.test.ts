import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
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
    // A query parameter the cache keys on (unknown ones are left out of the key), new in each run: the first answer renders.
    const url = `/about?q=compression-test-${Date.now()}`;
    const first = await rawGet(url, { "accept-encoding": "gzip, br" });
    const second = await rawGet(url, { "accept-encoding": "gzip, br" });
    for (const answer of [first, second]) expect(answer.status).toBe(200);
    // Rendered: brotli on the fly. From the cache: gzip, the copy whose nonces are rewritten per
    // answer (brotli offers no place to do that; see the page cache in docs/features/platform.md).
    expect(first.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(first.body).toString("utf8")).toContain("<!DOCTYPE html>");
    expect(second.headers["x-page-cache"]).toBe("hit");
    expect(second.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(second.body).toString("utf8")).toContain("<!DOCTYPE html>");
    const plain = await rawGet(url, {});
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
