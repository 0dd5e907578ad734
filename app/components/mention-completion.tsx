import { useEffect, useRef, useState } from "react";
import { useTranslation } from "../lib/i18n.tsx";
import { defaultAvatar } from "../../features/accounts/presenter.ts";

interface Candidate {
  id: number;
  username: string;
  nickname: string;
  avatar: string | null;
}

/** The `@` being typed right before the caret: where it starts, and what follows it so far. */
const typedMention = /(^|[^A-Za-z0-9_.@-])@([^\s@]{0,16})$/u;

/**
 * `@username` completion for one comment box (lazy-loaded: `comment-section.tsx` imports it the
 * first time a box is focused). While an `@name` is typed it asks `GET /api/Users/mentions/?q=`
 * and shows a listbox under the box: the text box is its combobox (`aria-expanded`,
 * `aria-activedescendant`); ↓ and ↑ move, Enter or Tab insert `@username `, Escape closes, and a
 * click picks one too. Without JavaScript people type the username themselves.
 */
export default function MentionCompletion({ textareaId }: { textareaId: string }) {
  const { t } = useTranslation("comments");
  const [items, setItems] = useState<Candidate[]>([]);
  const [active, setActive] = useState(0);
  const listId = `${textareaId}-mentions`;
  const state = useRef({ items, active, start: -1, end: -1 });
  state.current.items = items;
  state.current.active = active;
  const chooseRef = useRef<(candidate: Candidate) => void>(() => {});

  useEffect(() => {
    const textarea = document.getElementById(textareaId) as HTMLTextAreaElement | null;
    if (!textarea) return;
    textarea.setAttribute("role", "combobox");
    textarea.setAttribute("aria-autocomplete", "list");
    textarea.setAttribute("aria-controls", listId);
    textarea.setAttribute("aria-expanded", "false");
    let timer: ReturnType<typeof setTimeout> | undefined;
    let controller: AbortController | undefined;
    let asked = "";

    const close = () => {
      clearTimeout(timer);
      controller?.abort();
      asked = "";
      state.current.start = -1;
      setItems([]);
      setActive(0);
    };

    const lookUp = () => {
      const caret = textarea.selectionStart;
      if (caret !== textarea.selectionEnd) return close();
      const match = typedMention.exec(textarea.value.slice(0, caret));
      if (!match) return close();
      const typed = match[2]!;
      state.current.start = caret - typed.length - 1;
      state.current.end = caret;
      if (typed === asked && state.current.items.length > 0) return;
      clearTimeout(timer);
      timer = setTimeout(async () => {
        controller?.abort();
        controller = new AbortController();
        asked = typed;
        try {
          const response = await fetch(`/api/Users/mentions/?q=${encodeURIComponent(typed)}`, {
            headers: { accept: "application/json" },
            signal: controller.signal,
          });
          if (!response.ok) return close();
          const answer = (await response.json()) as { items: Candidate[] };
          if (state.current.start < 0) return;
          setItems(answer.items);
          setActive(0);
        } catch {
          // Aborted by the next keystroke, or offline: no suggestions.
        }
      }, 150);
    };

    chooseRef.current = (candidate) => {
      const { start, end } = state.current;
      if (start < 0) return;
      textarea.setRangeText(`@${candidate.username} `, start, end, "end");
      close();
      textarea.focus();
    };

    const onKeyDown = (event: KeyboardEvent) => {
      const { items: shown, active: current } = state.current;
      if (shown.length === 0) return;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        setActive((current + step + shown.length) % shown.length);
      } else if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        chooseRef.current(shown[current]!);
      } else if (event.key === "Escape") {
        event.preventDefault();
        close();
      }
    };
    const onBlur = () => setTimeout(close, 150);

    textarea.addEventListener("input", lookUp);
    textarea.addEventListener("click", lookUp);
    textarea.addEventListener("keydown", onKeyDown);
    textarea.addEventListener("blur", onBlur);
    return () => {
      clearTimeout(timer);
      controller?.abort();
      textarea.removeEventListener("input", lookUp);
      textarea.removeEventListener("click", lookUp);
      textarea.removeEventListener("keydown", onKeyDown);
      textarea.removeEventListener("blur", onBlur);
    };
  }, [textareaId, listId]);

  const open = items.length > 0;
  useEffect(() => {
    const textarea = document.getElementById(textareaId);
    if (!textarea) return;
    textarea.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) textarea.setAttribute("aria-activedescendant", `${listId}-${active}`);
    else textarea.removeAttribute("aria-activedescendant");
  }, [open, active, textareaId, listId]);

  return (
    <ul className="mention-list" id={listId} role="listbox" aria-label={t("mention_list")} hidden={!open} data-testid="mention-list">
      {items.map((candidate, index) => (
        <li
          key={candidate.id}
          id={`${listId}-${index}`}
          role="option"
          aria-selected={index === active}
          className="mention-option"
          // Picking keeps the focus in the box (no blur before the click lands).
          onMouseDown={(event) => {
            event.preventDefault();
            chooseRef.current(candidate);
          }}
          data-testid="mention-option"
        >
          <img src={candidate.avatar ?? defaultAvatar} alt="" width={20} height={20} className="comment-avatar" />
          <span>{candidate.nickname}</span> <span className="muted">@{candidate.username}</span>
        </li>
      ))}
    </ul>
  );
}
