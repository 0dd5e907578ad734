import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNotNull, isNull, lt } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { captchaChallenges } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { puzzleGeometry } from "./geometry.ts";
import { drawPuzzle } from "./puzzle.server.ts";
import type { CaptchaAnswer, CaptchaChallenge } from "./schema.ts";

export const captchaLifetimes = {
  /** Time to drag the piece after the puzzle is shown. */
  answerSeconds: 5 * 60,
  /** Time to sign in after solving it. */
  solvedSeconds: 5 * 60,
};

const hash = (token: string) => createHash("sha256").update(token).digest("hex");

/** A new puzzle; the browser gets the images and a token, the server keeps where the piece fits. */
export async function createChallenge(db: Executor, now = new Date()): Promise<CaptchaChallenge> {
  const puzzle = await drawPuzzle();
  const token = randomBytes(24).toString("base64url");
  await db.insert(captchaChallenges).values({
    tokenHash: hash(token),
    targetX: puzzle.targetX,
    createdAt: now,
    expiresAt: new Date(now.getTime() + captchaLifetimes.answerSeconds * 1000),
  });
  return {
    token,
    background: puzzle.background,
    piece: puzzle.piece,
    piece_y: puzzle.pieceY,
    width: puzzleGeometry.width,
    height: puzzleGeometry.height,
    piece_size: puzzleGeometry.pieceSize,
  };
}

/**
 * Checks where the piece was dropped. Each challenge takes one answer, right or wrong, so the
 * position cannot be found by trying; after a miss the browser asks for a new puzzle.
 */
export async function answerChallenge(db: Executor, answer: CaptchaAnswer, now = new Date()): Promise<void> {
  const tokenHash = hash(answer.token);
  const [row] = await db
    .update(captchaChallenges)
    .set({ answeredAt: now })
    .where(and(eq(captchaChallenges.tokenHash, tokenHash), isNull(captchaChallenges.answeredAt), gt(captchaChallenges.expiresAt, now)))
    .returning({ targetX: captchaChallenges.targetX });
  if (!row || Math.abs(row.targetX - answer.x) > puzzleGeometry.tolerance) throw new AppError("captcha_failed");
  await db
    .update(captchaChallenges)
    .set({ solvedAt: now, expiresAt: new Date(now.getTime() + captchaLifetimes.solvedSeconds * 1000) })
    .where(eq(captchaChallenges.tokenHash, tokenHash));
}

/** Uses up a solved challenge (one sign-in attempt each); without one the attempt is refused. */
export async function consumeSolvedChallenge(db: Executor, token: string | undefined, now = new Date()): Promise<void> {
  if (!token || token.length > 64) throw captchaRequired();
  const [row] = await db
    .delete(captchaChallenges)
    .where(and(eq(captchaChallenges.tokenHash, hash(token)), isNotNull(captchaChallenges.solvedAt), gt(captchaChallenges.expiresAt, now)))
    .returning({ tokenHash: captchaChallenges.tokenHash });
  if (!row) throw captchaRequired();
}

function captchaRequired() {
  return new AppError("captcha_required", { fields: { captcha: "errors:captcha_required" } });
}

export async function deleteExpiredChallenges(db: Executor, now = new Date()): Promise<void> {
  await db.delete(captchaChallenges).where(lt(captchaChallenges.expiresAt, now));
}
