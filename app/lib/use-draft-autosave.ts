import { useCallback, useEffect, useRef, useState } from "react";

export interface DraftSnapshot {
  title: string;
  body: string;
  fields: Record<string, unknown>;
}

export interface DraftVersion extends DraftSnapshot {
  version: number;
  updated_at?: string;
}

export type AutosaveStatus =
  | { state: "idle" }
  | { state: "saving" }
  | { state: "saved"; at: string }
  /** `message`: the server's reason in the page's language, when it refused the draft itself (too many drafts, fields too large). */
  | { state: "failed"; message?: string }
  | { state: "conflict"; current: DraftVersion; yours: DraftSnapshot };

/** Every few seconds while something changed; a failed save is retried on the next tick. */
export const autosaveIntervalMs = 3000;

/**
 * Saves the editor's draft on the server (`PUT /api/drafts/{key}/` with the version last seen):
 * every few seconds while it changed, and on `pagehide` with a keepalive request, so a closed tab
 * keeps what was typed. A save refused because another tab or device saved in between becomes a
 * conflict for the user to settle (`keepMine` saves over it, `takeTheirs` loads it); a failed
 * save keeps the text in the page and tries again.
 */
export function useDraftAutosave(options: { draftKey: string; initialVersion: number; csrfToken: string; snapshot: () => DraftSnapshot }) {
  const version = useRef(options.initialVersion);
  const dirty = useRef(false);
  const saving = useRef(false);
  const [status, setStatus] = useState<AutosaveStatus>({ state: "idle" });
  const conflicted = useRef(false);
  const snapshotRef = useRef(options.snapshot);
  snapshotRef.current = options.snapshot;
  const url = `/api/drafts/${options.draftKey}/`;
  const headers = { "content-type": "application/json", "x-csrftoken": options.csrfToken };

  const save = useCallback(
    async (force = false) => {
      if (saving.current) return;
      saving.current = true;
      dirty.current = false;
      const snapshot = snapshotRef.current();
      setStatus({ state: "saving" });
      try {
        const response = await fetch(url, {
          method: "PUT",
          headers,
          credentials: "same-origin",
          body: JSON.stringify({ ...snapshot, version: version.current, force }),
        });
        if (response.status === 409) {
          const body = (await response.json()) as { current: DraftVersion };
          conflicted.current = true;
          setStatus({ state: "conflict", current: body.current, yours: snapshot });
          return;
        }
        if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) {
          // Refused as it is: saying why helps, retrying the same text every few seconds does not.
          const body = (await response.json().catch(() => ({}))) as { message?: unknown };
          setStatus({ state: "failed", message: typeof body.message === "string" ? body.message : undefined });
          return;
        }
        if (!response.ok) throw new Error(`draft save answered ${response.status}`);
        const saved = (await response.json()) as DraftVersion;
        version.current = saved.version;
        setStatus({ state: "saved", at: saved.updated_at ?? new Date().toISOString() });
      } catch {
        dirty.current = true;
        setStatus({ state: "failed" });
      } finally {
        saving.current = false;
      }
    },
    [url, options.csrfToken],
  );

  useEffect(() => {
    const timer = setInterval(() => {
      if (dirty.current && !conflicted.current) void save();
    }, autosaveIntervalMs);
    const onPageHide = () => {
      if (!dirty.current || conflicted.current) return;
      // keepalive lets the request outlive the page (sendBeacon cannot carry the CSRF header).
      void fetch(url, {
        method: "PUT",
        headers,
        credentials: "same-origin",
        keepalive: true,
        body: JSON.stringify({ ...snapshotRef.current(), version: version.current }),
      }).catch(() => undefined);
      dirty.current = false;
    };
    window.addEventListener("pagehide", onPageHide);
    return () => {
      clearInterval(timer);
      window.removeEventListener("pagehide", onPageHide);
    };
  }, [save, url]);

  return {
    status,
    markDirty: () => {
      dirty.current = true;
    },
    /** After a conflict: save this tab's text over the other version. */
    keepMine: () => {
      conflicted.current = false;
      void save(true);
    },
    /** After a conflict: adopt the other version (the caller puts its text into the editor). */
    takeTheirs: (current: DraftVersion) => {
      conflicted.current = false;
      version.current = current.version;
      dirty.current = false;
      setStatus({ state: "saved", at: current.updated_at ?? new Date().toISOString() });
    },
    /** The "Save draft" button: save now, changed or not (a conflict stays for the writer to settle). */
    saveNow: () => {
      if (!conflicted.current) void save();
    },
    /** Publishing: nothing more to save. */
    stop: () => {
      dirty.current = false;
      conflicted.current = true;
    },
  };
}
