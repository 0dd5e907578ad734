import sharp from "sharp";
import type { APIRequestContext, Page } from "playwright-core";
import { maxPieceX, puzzleGeometry } from "../../features/captcha/geometry.ts";

/** How dark the hole is drawn over the scene (see features/captcha/puzzle.server.ts). */
const holeKeeps = 0.45;

async function rgb(dataUrl: string) {
  const { data, info } = await sharp(Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64"))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width };
}

/**
 * Finds where the piece fits, as a person does by eye: the hole shows the piece's own picture,
 * darkened. Compares the piece's inner square with the background at every position.
 */
export async function findHole(backgroundUrl: string, pieceUrl: string, pieceY: number): Promise<number> {
  const background = await rgb(backgroundUrl);
  const piece = await rgb(pieceUrl);
  let best = { x: 0, error: Number.POSITIVE_INFINITY };
  for (let x = 0; x <= maxPieceX; x += 1) {
    let error = 0;
    for (let j = 18; j <= 44; j += 1) {
      for (let i = 6; i <= 32; i += 1) {
        const p = (j * piece.width + i) * 3;
        const b = ((pieceY + j) * background.width + x + i) * 3;
        for (let c = 0; c < 3; c += 1) error += Math.abs(background.data[b + c]! - holeKeeps * piece.data[p + c]!);
      }
    }
    if (error < best.error) best = { x, error };
  }
  return best.x;
}

/** Reads the puzzle on the page and answers it: by dragging the handle, or with the arrow keys. */
export async function solveCaptcha(page: Page, how: "drag" | "keys" = "drag", offset = 0): Promise<void> {
  await page.locator('.captcha[data-phase="ready"]').waitFor();
  // The mouse works in the viewport: below the fold (the long sign-up form) it would miss the slider.
  await page.locator(".captcha").scrollIntoViewIfNeeded();
  const background = await page.locator(".captcha-background").getAttribute("src");
  const piece = await page.locator(".captcha-piece").getAttribute("src");
  const style = await page.locator(".captcha-piece").getAttribute("style");
  const pieceY = Math.round((Number(/top:\s*([\d.]+)%/.exec(style ?? "")?.[1]) / 100) * puzzleGeometry.height);
  const target = Math.min(maxPieceX, Math.max(0, (await findHole(background!, piece!, pieceY)) + offset));
  const handle = page.locator(".captcha-handle");
  if (how === "keys") {
    await handle.focus();
    for (let moved = 0; moved + 10 <= target; moved += 10) await page.keyboard.press("Shift+ArrowRight");
    for (let moved = target - (target % 10); moved < target; moved += 2) await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Enter");
    return;
  }
  const image = await page.locator(".captcha-image").boundingBox();
  const box = await handle.boundingBox();
  const scale = image!.width / puzzleGeometry.width;
  const startX = box!.x + box!.width / 2;
  const y = box!.y + box!.height / 2;
  await page.mouse.move(startX, y);
  await page.mouse.down();
  for (let step = 1; step <= 8; step += 1) await page.mouse.move(startX + (target * scale * step) / 8, y);
  await page.mouse.up();
}

/**
 * Draws and solves a puzzle through the API (as the page's script would), for a client that cannot
 * run the slider itself: returns the solved token. `csrfToken` is the visitor's csrftoken cookie.
 */
export async function solveCaptchaThroughApi(request: APIRequestContext, csrfToken: string): Promise<string> {
  const puzzle = (await (await request.get("/api/captcha/")).json()) as {
    token: string;
    background: string;
    piece: string;
    piece_y: number;
  };
  const x = await findHole(puzzle.background, puzzle.piece, puzzle.piece_y);
  const answer = await request.post("/api/captcha/verify/", { data: { token: puzzle.token, x }, headers: { "x-csrftoken": csrfToken } });
  if (answer.status() !== 204) throw new Error(`The puzzle was not solved (${answer.status()})`);
  return puzzle.token;
}
