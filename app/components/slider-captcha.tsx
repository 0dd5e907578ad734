import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import { useTranslation } from "../lib/i18n.tsx";
import { failedBody, loadHttp } from "../lib/load-http.ts";
import { maxPieceX, puzzleGeometry } from "../../features/captcha/geometry.ts";
import type { CaptchaChallenge } from "../../features/captcha/schema.ts";
import "../../common/i18n-forms.ts";

type Phase = "loading" | "ready" | "dragging" | "checking" | "solved" | "failed" | "unavailable";

interface SliderCaptchaProps {
  id: string;
  /** A message from the form (not solved yet, or the server refused the token). */
  error?: string;
  /** A new value (a new form answer) asks for a new puzzle: a token is good for one sign-in attempt. */
  resetSignal?: unknown;
}

const percent = (value: number, of: number) => `${(value / of) * 100}%`;

/**
 * The sign-in slider puzzle: drag the piece (pointer or arrow keys) into its hole. The server
 * checks the drop; when it fits, the challenge token goes with the form in the `captcha` field.
 */
export function SliderCaptcha({ id, error, resetSignal }: SliderCaptchaProps) {
  const { t } = useTranslation(["accounts", "errors"]);
  const [challenge, setChallenge] = useState<CaptchaChallenge | null>(null);
  const [phase, setPhase] = useState<Phase>("loading");
  const [x, setX] = useState(0);
  const [message, setMessage] = useState<string>();
  const imageRef = useRef<HTMLDivElement>(null);
  const drag = useRef<{ pointerX: number; startX: number } | null>(null);
  const retryTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const load = useCallback(async () => {
    clearTimeout(retryTimer.current);
    setPhase("loading");
    setMessage(undefined);
    setX(0);
    try {
      setChallenge(await (await loadHttp())<CaptchaChallenge>("/api/captcha/"));
      setPhase("ready");
    } catch {
      setChallenge(null);
      setPhase("unavailable");
    }
  }, []);

  useEffect(() => {
    void load();
    return () => clearTimeout(retryTimer.current);
  }, [load, resetSignal]);

  const verify = async (dropX: number) => {
    if (!challenge) return;
    setPhase("checking");
    try {
      await (
        await loadHttp()
      )("/api/captcha/verify/", { method: "POST", body: { token: challenge.token, x: Math.round(dropX) } });
      setPhase("solved");
      setMessage(undefined);
    } catch (failure) {
      const answer = failedBody(failure);
      setPhase("failed");
      setMessage(typeof answer?.message === "string" ? answer.message : t("errors:captcha_failed"));
      retryTimer.current = setTimeout(() => void load(), 1200);
    }
  };

  const movable = phase === "ready" || phase === "dragging";
  const clamp = (value: number) => Math.min(maxPieceX, Math.max(0, value));

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (!movable) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { pointerX: event.clientX, startX: x };
    setPhase("dragging");
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    const scale = puzzleGeometry.width / (imageRef.current?.clientWidth || puzzleGeometry.width);
    setX(clamp(drag.current.startX + (event.clientX - drag.current.pointerX) * scale));
  };
  const onPointerUp = () => {
    if (!drag.current) return;
    drag.current = null;
    void verify(x);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!movable) return;
    const step = event.shiftKey ? 10 : 2;
    const moves: Record<string, number> = {
      ArrowRight: x + step,
      ArrowUp: x + step,
      ArrowLeft: x - step,
      ArrowDown: x - step,
      Home: 0,
      End: maxPieceX,
    };
    if (event.key in moves) {
      event.preventDefault();
      setX(clamp(moves[event.key]!));
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      void verify(x);
    }
  };

  const status =
    phase === "solved"
      ? t("captcha.verified")
      : phase === "failed"
        ? message
        : phase === "checking"
          ? t("captcha.checking")
          : phase === "unavailable"
            ? t("captcha.unavailable")
            : phase === "loading"
              ? t("captcha.loading")
              : undefined;
  const shownError = phase === "solved" || phase === "failed" ? undefined : error;

  return (
    <div className="form-field captcha" data-phase={phase}>
      <span className="captcha-label" id={`${id}-label`}>
        {t("captcha.label")}
      </span>
      <input type="hidden" name="captcha" value={phase === "solved" && challenge ? challenge.token : ""} />
      <noscript>
        <p className="form-error">{t("captcha.noscript")}</p>
      </noscript>
      <div className="captcha-image" ref={imageRef} style={{ aspectRatio: `${puzzleGeometry.width} / ${puzzleGeometry.height}` }}>
        {challenge ? (
          <>
            <img className="captcha-background" src={challenge.background} alt={t("captcha.image_alt")} draggable={false} />
            <img
              className="captcha-piece"
              src={challenge.piece}
              alt=""
              draggable={false}
              style={{
                left: percent(x, challenge.width),
                top: percent(challenge.piece_y, challenge.height),
                width: percent(challenge.piece_size, challenge.width),
              }}
            />
          </>
        ) : null}
        <button
          type="button"
          className="captcha-refresh"
          onClick={() => void load()}
          disabled={phase === "loading" || phase === "checking"}
          title={t("captcha.refresh")}
          aria-label={t("captcha.refresh")}
        >
          ↻
        </button>
      </div>
      <div className="captcha-track">
        <div className="captcha-fill" style={{ width: percent(x + puzzleGeometry.pieceSize / 2, puzzleGeometry.width) }} />
        <span className="captcha-prompt" id={`${id}-prompt`} hidden={!movable || x > 0}>
          {t("captcha.prompt")}
        </span>
        <div
          id={id}
          className="captcha-handle"
          role="slider"
          tabIndex={movable ? 0 : -1}
          aria-labelledby={`${id}-label`}
          aria-describedby={shownError ? `${id}-error` : `${id}-prompt`}
          aria-invalid={shownError ? true : undefined}
          aria-valuemin={0}
          aria-valuemax={maxPieceX}
          aria-valuenow={Math.round(x)}
          aria-disabled={!movable}
          style={{ left: percent(x, puzzleGeometry.width), width: percent(puzzleGeometry.pieceSize, puzzleGeometry.width) }}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onKeyDown={onKeyDown}
        >
          <span aria-hidden="true">{phase === "solved" ? "✓" : phase === "failed" ? "✕" : "→"}</span>
        </div>
      </div>
      <div className="captcha-status" aria-live="polite">
        {status}{" "}
        {phase === "unavailable" ? (
          <button type="button" className="link-button" onClick={() => void load()}>
            {t("captcha.retry")}
          </button>
        ) : null}
      </div>
      {shownError ? (
        <div className="form-error" id={`${id}-error`} role="alert" data-field-error={id}>
          {shownError}
        </div>
      ) : null}
    </div>
  );
}
