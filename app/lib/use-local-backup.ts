import { useEffect, useRef, useState } from "react";

/** What an editor keeps in the browser while the writer types. */
export interface BackupText {
  title: string;
  content: string;
}

export interface StoredBackup extends BackupText {
  /** When it was written (ms since the epoch); also tells one write from another. */
  savedAt: number;
}

/** A publish submitted from this tab: its backup is removed on the page the success leads to. */
interface SubmittedMarker {
  key: string;
  savedAt: number;
  /** What the success page checks (the book whose write page says "chapter added"). */
  scope: string;
}

const submittedMarkerKey = "circles.backup.submitted";
const backupDelayMs = 500;

/**
 * The key of a chapter's backup: per signed-in user (another account on the same browser never
 * sees it), book and chapter ("new" for the add-chapter form).
 */
export const chapterBackupKey = (userId: number, bookId: number, chapterId: number | null) =>
  `circles.backup.${userId}.chapter.${bookId}.${chapterId ?? "new"}`;

/** The scope a chapter publish's marker carries: the book whose write page the success opens. */
export const chapterBackupScope = (bookId: number) => `book:${bookId}`;

const sameText = (a: BackupText, b: BackupText) => a.title === b.title && a.content === b.content;

// Storage may be disabled, full or refused (private modes, quotas): the backup is a best effort
// on top of the form, never a reason for the editor to fail.
function readBackup(key: string): StoredBackup | null {
  try {
    const raw = window.localStorage.getItem(key);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<StoredBackup>;
    if (typeof value.title !== "string" || typeof value.content !== "string" || typeof value.savedAt !== "number") return null;
    return { title: value.title, content: value.content, savedAt: value.savedAt };
  } catch {
    return null;
  }
}

function writeBackup(key: string, text: BackupText): number | null {
  try {
    const savedAt = Date.now();
    window.localStorage.setItem(key, JSON.stringify({ title: text.title, content: text.content, savedAt }));
    return savedAt;
  } catch {
    return null;
  }
}

function removeBackup(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing kept, nothing to remove.
  }
}

/**
 * On the page a successful publish leads to: removes the backup the publish was submitted with,
 * unless it was written again since (the writer typed on while the post was under way).
 */
export function settleSubmittedBackup(scope: string): void {
  try {
    const raw = window.sessionStorage.getItem(submittedMarkerKey);
    if (!raw) return;
    const marker = JSON.parse(raw) as SubmittedMarker;
    if (marker.scope !== scope) return;
    window.sessionStorage.removeItem(submittedMarkerKey);
    if (readBackup(marker.key)?.savedAt === marker.savedAt) removeBackup(marker.key);
  } catch {
    // No marker to honour.
  }
}

export interface LocalBackupOptions {
  /** The storage key (see `chapterBackupKey`); null turns the backup off (nobody signed in). */
  key: string | null;
  /** The text the server sent for this form: a backup equal to it holds nothing unsaved. */
  server: BackupText;
  /** The text in the editor now. */
  current: BackupText;
  /** The text the server just confirmed as saved (the edit form's success answer), if any. */
  saved?: BackupText | null;
}

/**
 * Keeps an editor's title and text in `localStorage` while the writer types (0.5 s after typing
 * stops and when the page goes away), so a save that fails on the network or with an unexpected
 * server error loses nothing. When the page opens with a backup that differs from the server's
 * text, it is offered (`offer`), never applied by itself: the writer restores or discards it; until
 * then it is not overwritten. JavaScript only: the plain form works without it.
 */
export function useLocalBackup({ key, server, current, saved = null }: LocalBackupOptions) {
  const [offer, setOffer] = useState<StoredBackup | null>(null);
  const [restored, setRestored] = useState(false);
  // Nothing is written before the stored backup was looked at, nor while it is offered.
  const holding = useRef(true);
  const latest = useRef(current);
  latest.current = current;
  const serverRef = useRef(server);
  serverRef.current = server;
  const lastSeen = useRef(current);
  const dirty = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const write = (): number | null => {
    clearTimeout(timer.current);
    if (!key || holding.current) return null;
    dirty.current = false;
    const text = latest.current;
    if (sameText(text, serverRef.current) || (!text.title.trim() && !text.content.trim())) {
      removeBackup(key);
      return null;
    }
    return writeBackup(key, text);
  };
  const writeRef = useRef(write);
  writeRef.current = write;

  // Opening the page: offer a backup that holds something other than what the server sent.
  useEffect(() => {
    if (!key) return;
    const stored = readBackup(key);
    if (stored && !sameText(stored, serverRef.current)) setOffer(stored);
    else {
      if (stored) removeBackup(key);
      holding.current = false;
      if (dirty.current) writeRef.current();
    }
    const flushIfDirty = () => {
      if (dirty.current) writeRef.current();
    };
    window.addEventListener("pagehide", flushIfDirty);
    return () => {
      window.removeEventListener("pagehide", flushIfDirty);
      // Leaving the page (a link, or the redirect after a publish): only unwritten typing is
      // written, so the publish's marker still matches what it submitted.
      flushIfDirty();
      holding.current = true;
    };
  }, [key]);

  // Typing: written once it pauses.
  useEffect(() => {
    if (sameText(current, lastSeen.current)) return;
    lastSeen.current = current;
    dirty.current = true;
    if (holding.current) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => writeRef.current(), backupDelayMs);
  }, [current.title, current.content]);

  // The server confirmed a save: the backup of exactly that text has done its job.
  useEffect(() => {
    if (!key || !saved) return;
    if (dirty.current && !holding.current) writeRef.current();
    const stored = readBackup(key);
    if (stored && sameText(stored, saved)) removeBackup(key);
  }, [key, saved]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const settleOffer = () => {
    setOffer(null);
    holding.current = false;
  };

  return {
    /** A backup waiting for the writer's choice. */
    offer,
    /** The offered backup was put into the editor (it is kept until published). */
    restored,
    /** Takes the offered backup: the caller puts its title and text into the editor. */
    restore(): StoredBackup | null {
      const taken = offer;
      settleOffer();
      setRestored(true);
      return taken;
    },
    /** Throws the offered backup away; the editor keeps the server's text (and anything typed since). */
    discard(): void {
      if (key) removeBackup(key);
      settleOffer();
      if (dirty.current) writeRef.current();
    },
    /**
     * The form is being submitted to publish: writes the backup now and, given the scope of the
     * page a success opens, remembers it in this tab so that page (`settleSubmittedBackup(scope)`)
     * removes it. A form whose success answers in place passes `saved` instead.
     */
    submitting(scope: string | null): void {
      if (!key) return;
      const savedAt = write();
      try {
        if (savedAt === null || scope === null) window.sessionStorage.removeItem(submittedMarkerKey);
        else window.sessionStorage.setItem(submittedMarkerKey, JSON.stringify({ key, savedAt, scope } satisfies SubmittedMarker));
      } catch {
        // Without the marker the backup stays until the next visit finds it equal or discarded.
      }
    },
  };
}
