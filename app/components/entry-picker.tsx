import { useEffect, useRef, useState } from "react";
import { Select } from "antd";
import { useTranslation } from "../lib/i18n.tsx";
import { AntdScope } from "./antd-scope.tsx";
import { loadHttp } from "../lib/load-http.ts";
import { bracketed } from "../../features/encyclopedia/paths.ts";
import { maxRelatedEntries } from "../../features/writings/schema.ts";

/** An entry as the picker shows it (the search API's answer, or the editor loader's for entries already related). */
export interface PickedEntry {
  id: number;
  name: string;
  disambiguation: string | null;
  language?: string;
  circle_name?: string;
}

interface Choice {
  value: number;
  label: React.ReactNode;
}

/** Searches wait this long after the last keystroke. */
const debounceMs = 250;

function EntryLabel({ entry, withCircle }: { entry: PickedEntry; withCircle?: boolean }) {
  return (
    <span className="entry-picker-option">
      <span>{entry.name}</span>
      {entry.disambiguation ? <span className="muted">{bracketed(entry.disambiguation, entry.language).trim()}</span> : null}
      {withCircle && entry.circle_name ? <span className="muted">· {entry.circle_name}</span> : null}
    </span>
  );
}

const choiceOf = (entry: PickedEntry): Choice => ({ value: entry.id, label: <EntryLabel entry={entry} /> });

/**
 * The related-entries picker of the writing editor (loaded only once the editor has hydrated;
 * before that, and without JavaScript, the field is a text box of comma-separated ids). It searches
 * `GET /api/encyclopedia/entries/` as the writer types (empty: the circle's newest entries), keeps
 * at most five, and writes the chosen ids into the same form field, `related_entries`.
 */
export default function EntryPicker({
  id,
  name,
  initial,
  circleId,
  invalid,
  describedById,
  onChange,
}: {
  id: string;
  name: string;
  initial: PickedEntry[];
  circleId: number;
  invalid: boolean;
  describedById?: string;
  onChange(): void;
}) {
  const { t } = useTranslation("editor");
  const [chosen, setChosen] = useState<Choice[]>(() => initial.map(choiceOf));
  const [options, setOptions] = useState<{ value: number; label: React.ReactNode }[]>([]);
  const [state, setState] = useState<"idle" | "searching" | "failed">("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(0);

  const search = (text: string) => {
    clearTimeout(timer.current);
    const ticket = (latest.current += 1);
    setState("searching");
    timer.current = setTimeout(() => {
      loadHttp()
        .then((http) =>
          http<{ results: PickedEntry[] }>("/api/encyclopedia/entries/", {
            query: { q: text.trim(), circle: text.trim() === "" ? circleId : undefined },
          }),
        )
        .then((answer) => {
          if (ticket !== latest.current) return;
          setOptions(answer.results.map((entry) => ({ value: entry.id, label: <EntryLabel entry={entry} withCircle />, entry })));
          setState("idle");
        })
        .catch(() => {
          if (ticket === latest.current) setState("failed");
        });
    }, debounceMs);
  };
  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <AntdScope>
      <input type="hidden" name={name} value={chosen.map((choice) => choice.value).join(",")} data-testid="related-entries-value" />
      <Select<Choice[], { value: number; label: React.ReactNode; entry?: PickedEntry }>
        id={id}
        mode="multiple"
        labelInValue
        value={chosen}
        options={options}
        maxCount={maxRelatedEntries}
        showSearch={{ filterOption: false, onSearch: search }}
        placeholder={t("editor.related_placeholder")}
        status={invalid ? "error" : undefined}
        aria-describedby={describedById}
        aria-invalid={invalid || undefined}
        style={{ width: "100%" }}
        data-testid="entry-picker"
        notFoundContent={
          state === "searching" ? t("editor.related_searching") : state === "failed" ? t("editor.related_failed") : t("editor.related_none")
        }
        onOpenChange={(open) => {
          if (open) search("");
        }}
        onChange={(next, picked) => {
          // A chip shows the entry's name and note, not the search result's circle.
          const pickedList = Array.isArray(picked) ? picked : [];
          setChosen(
            next.map((choice) => {
              const found = pickedList.find((option) => option?.value === choice.value)?.entry;
              return found ? choiceOf(found) : (chosen.find((known) => known.value === choice.value) ?? choice);
            }),
          );
          onChange();
        }}
      />
    </AntdScope>
  );
}
