import { useEffect, useState } from "react";

/**
 * Seconds left until another code may be asked for, counting down once a second from the moment
 * `seconds` arrived (a new `key` restarts it). `running` is false on the server and before
 * hydration: a page without JavaScript cannot count, so it never disables the button.
 */
export function useCountdown(seconds: number | undefined, key: unknown): { remaining: number; running: boolean } {
  const [remaining, setRemaining] = useState(seconds ?? 0);
  const [running, setRunning] = useState(false);
  useEffect(() => {
    setRunning(true);
    if (!seconds) {
      setRemaining(0);
      return;
    }
    const deadline = Date.now() + seconds * 1000;
    const tick = () => setRemaining(Math.max(0, Math.ceil((deadline - Date.now()) / 1000)));
    tick();
    const timer = setInterval(() => {
      tick();
      if (Date.now() >= deadline) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
    // `key` restarts the countdown for each new answer, even with the same number of seconds.
  }, [seconds, key]);
  return { remaining, running };
}
