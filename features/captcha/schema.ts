import { z } from "zod";
import { maxPieceX } from "./geometry.ts";

/** A challenge token as handed out by `GET /api/captcha/`. */
export const captchaTokenSchema = z
  .string()
  .min(16)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);

export const captchaAnswerSchema = z.strictObject({
  token: captchaTokenSchema,
  /** Where the piece was dropped, in image pixels from the left. */
  x: z.number().min(0).max(maxPieceX),
});
export type CaptchaAnswer = z.infer<typeof captchaAnswerSchema>;

export const captchaChallengeSchema = z.object({
  token: z.string(),
  background: z.string(),
  piece: z.string(),
  piece_y: z.number(),
  width: z.number(),
  height: z.number(),
  piece_size: z.number(),
});
export type CaptchaChallenge = z.infer<typeof captchaChallengeSchema>;
