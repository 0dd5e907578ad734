import { randomInt } from "node:crypto";
import sharp from "sharp";
import { puzzleGeometry } from "./geometry.ts";

const { width, height, pieceSize } = puzzleGeometry;

/** A jigsaw piece in a pieceSize square: a body with a knob on top and one on the right. */
const piecePath = "M1 12 H12 A7 7 0 1 1 26 12 H37 V22 A7 7 0 1 1 37 36 V48 H1 Z";

export interface PuzzleImages {
  /** Where the piece fits, in image pixels from the left (kept on the server). */
  targetX: number;
  /** The piece's row, in image pixels from the top (the browser needs it to place the piece). */
  pieceY: number;
  /** The scene with the hole, as a data URL. */
  background: string;
  /** The cut-out piece with transparency, as a data URL. */
  piece: string;
}

/** Draws a random scene, cuts a piece out of it at a random place and returns both images. */
export async function drawPuzzle(): Promise<PuzzleImages> {
  const targetX = randomInt(pieceSize + 20, width - pieceSize - 8);
  const pieceY = randomInt(8, height - pieceSize - 8);
  const scene = await sharp(Buffer.from(sceneSvg())).png().toBuffer();

  const hole = svg(
    pieceSize,
    pieceSize,
    `<path d="${piecePath}" fill="rgba(0,0,0,0.55)" stroke="rgba(255,255,255,0.9)" stroke-width="1.5"/>`,
  );
  const background = await sharp(scene)
    .composite([{ input: hole, left: targetX, top: pieceY }])
    .jpeg({ quality: 78 })
    .toBuffer();

  const mask = svg(pieceSize, pieceSize, `<path d="${piecePath}" fill="#fff"/>`);
  const outline = svg(pieceSize, pieceSize, `<path d="${piecePath}" fill="none" stroke="rgba(255,255,255,0.95)" stroke-width="2"/>`);
  const cut = await sharp(scene).extract({ left: targetX, top: pieceY, width: pieceSize, height: pieceSize }).png().toBuffer();
  const piece = await sharp(cut)
    .ensureAlpha()
    .composite([
      { input: mask, blend: "dest-in" },
      { input: outline, blend: "over" },
    ])
    .png()
    .toBuffer();

  return {
    targetX,
    pieceY,
    background: `data:image/jpeg;base64,${background.toString("base64")}`,
    piece: `data:image/png;base64,${piece.toString("base64")}`,
  };
}

function svg(w: number, h: number, body: string): Buffer {
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${body}</svg>`);
}

/** A gradient under random translucent shapes: busy enough that the hole is not found by a flat-colour search. */
function sceneSvg(): string {
  const hue = randomInt(0, 360);
  const shapes: string[] = [];
  for (let index = 0; index < 26; index += 1) {
    const fill = `hsla(${(hue + randomInt(-90, 150) + 360) % 360}, ${randomInt(45, 90)}%, ${randomInt(35, 75)}%, ${(randomInt(35, 80) / 100).toFixed(2)})`;
    const x = randomInt(-20, width);
    const y = randomInt(-20, height);
    const size = randomInt(10, 60);
    switch (index % 3) {
      case 0:
        shapes.push(`<circle cx="${x}" cy="${y}" r="${size / 2}" fill="${fill}"/>`);
        break;
      case 1:
        shapes.push(
          `<rect x="${x}" y="${y}" width="${size}" height="${randomInt(8, 40)}" fill="${fill}" transform="rotate(${randomInt(0, 90)} ${x} ${y})"/>`,
        );
        break;
      default:
        shapes.push(
          `<polygon points="${x},${y} ${x + size},${y + randomInt(-20, 20)} ${x + randomInt(-10, size)},${y + size}" fill="${fill}"/>`,
        );
    }
  }
  for (let index = 0; index < 6; index += 1) {
    shapes.push(
      `<path d="M${randomInt(0, width)} 0 Q ${randomInt(0, width)} ${randomInt(0, height)} ${randomInt(0, width)} ${height}" stroke="hsla(${randomInt(0, 360)}, 60%, 85%, 0.5)" stroke-width="${randomInt(1, 4)}" fill="none"/>`,
    );
  }
  const gradient = `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue}, 55%, 42%)"/><stop offset="1" stop-color="hsl(${(hue + 120) % 360}, 60%, 55%)"/></linearGradient></defs>`;
  return svg(width, height, `${gradient}<rect width="${width}" height="${height}" fill="url(#g)"/>${shapes.join("")}`).toString();
}
