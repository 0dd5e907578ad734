import { useEffect, useState, type RefObject } from "react";
import { useNavigate } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";

interface Suggestion {
  type: string;
  id: number;
  title: string;
  url: string;
}

/**
 * Suggestions under the header's search box as one types (titles, entry names, circles, users;
 * pinyin and initials work): loaded only once the box is first focused, so pages pay nothing for
 * it up front. Arrow keys move through them, Enter opens one; without a pick the form searches.
 */
export default function SearchSuggestions({ input }: { input: RefObject<HTMLInputElement | null> }) {
  const { t } = useTranslation("common");
  const navigate = useNavigate();
  const [items, setItems] = useState<Suggestion[]>([]);
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const box = input.current;
    if (!box) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let controller: AbortController | undefined;
    const load = () => {
      clearTimeout(timer);
      const query = box.value.trim();
      if (!query) {
        setItems([]);
        setOpen(false);
        return;
      }
      timer = setTimeout(() => {
        controller?.abort();
        controller = new AbortController();
        fetch(`/api/search/suggest/?q=${encodeURIComponent(query)}`, { signal: controller.signal, headers: { accept: "application/json" } })
          .then((response) => (response.ok ? (response.json() as Promise<{ suggestions: Suggestion[] }>) : { suggestions: [] }))
          .then((answer) => {
            setItems(answer.suggestions);
            setActive(-1);
            setOpen(answer.suggestions.length > 0);
          })
          .catch(() => {});
      }, 120);
    };
    const close = () => setTimeout(() => setOpen(false), 150);
    // Enter without a pick searches: the list closes and an answer still on its way stays closed.
    const submit = (event: KeyboardEvent) => {
      if (event.key !== "Enter" || box.getAttribute("aria-activedescendant")) return;
      clearTimeout(timer);
      controller?.abort();
      setOpen(false);
    };
    box.setAttribute("role", "combobox");
    box.setAttribute("aria-autocomplete", "list");
    box.setAttribute("aria-controls", "site-search-suggestions");
    box.setAttribute("autocomplete", "off");
    box.addEventListener("input", load);
    box.addEventListener("blur", close);
    box.addEventListener("focus", load);
    box.addEventListener("keydown", submit);
    load();
    return () => {
      clearTimeout(timer);
      controller?.abort();
      box.removeEventListener("input", load);
      box.removeEventListener("blur", close);
      box.removeEventListener("focus", load);
      box.removeEventListener("keydown", submit);
    };
  }, [input]);

  useEffect(() => {
    const box = input.current;
    if (!box) return;
    box.setAttribute("aria-expanded", open ? "true" : "false");
    if (active >= 0 && open) box.setAttribute("aria-activedescendant", `site-search-option-${active}`);
    else box.removeAttribute("aria-activedescendant");
    const keys = (event: KeyboardEvent) => {
      if (!open || items.length === 0) return;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const last = items.length - 1;
        setActive((current) => (event.key === "ArrowDown" ? (current >= last ? 0 : current + 1) : current <= 0 ? last : current - 1));
      } else if (event.key === "Enter" && active >= 0 && items[active]) {
        event.preventDefault();
        setOpen(false);
        void navigate(items[active].url);
      } else if (event.key === "Escape") {
        setOpen(false);
      }
    };
    box.addEventListener("keydown", keys);
    return () => box.removeEventListener("keydown", keys);
  }, [input, open, items, active, navigate]);

  if (!open) return null;
  return (
    <ul id="site-search-suggestions" role="listbox" aria-label={t("nav.search_suggestions")} className="site-search-suggestions">
      {items.map((item, index) => (
        <li
          key={`${item.type}-${item.id}`}
          id={`site-search-option-${index}`}
          role="option"
          aria-selected={index === active}
          className="site-search-option"
          onMouseDown={(event) => {
            // Before the box's blur closes the list.
            event.preventDefault();
            setOpen(false);
            void navigate(item.url);
          }}
        >
          <span className="site-search-option-type">{t(`nav.search_type.${item.type}`)}</span>
          <span className="site-search-option-title">{item.title}</span>
        </li>
      ))}
    </ul>
  );
}
