import { useEffect, useRef } from "react";

/** A kind whose registration counts views and reads (`views`, features/metrics/views.ts); any other answers the pixel uncounted. */
type ViewedKind = string;

/** A view becomes a read after this long on the page (docs/features/metrics.md; `minimumReadSeconds`). */
const minimumReadMs = 30_000;

/**
 * Counts this visit once per visitor and Asia/Shanghai day by loading a 1×1 image (so cached pages
 * and pages without JavaScript count too), and marks it read when the end of the text comes into
 * view or the page stays `minimumReadMs`, whichever is first (the read beacon, once per page load).
 * Place it after the text: the image itself is the end-of-text marker.
 */
export function ViewBeacon({ type, id, className = "view-beacon" }: { type: ViewedKind; id: number; className?: string }) {
  const marker = useRef<HTMLImageElement>(null);
  useEffect(() => {
    let sent = false;
    const read = () => {
      if (sent) return;
      sent = true;
      new Image().src = `/api/views/${type}/${id}/read.gif`;
    };
    const timer = window.setTimeout(read, minimumReadMs);
    const observer =
      typeof IntersectionObserver === "function"
        ? new IntersectionObserver((entries) => {
            if (entries.some((entry) => entry.isIntersecting)) read();
          })
        : null;
    if (marker.current && observer) observer.observe(marker.current);
    return () => {
      window.clearTimeout(timer);
      observer?.disconnect();
    };
  }, [type, id]);
  return <img ref={marker} className={className} src={`/api/views/${type}/${id}/view.gif`} alt="" width={1} height={1} />;
}
