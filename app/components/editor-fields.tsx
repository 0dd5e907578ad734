import { lazy, Suspense } from "react";
import type { CategoryView } from "../../features/circles/categories.ts";
import { describedBy, FormField } from "./form-field.tsx";
import type { PickedEntry } from "./entry-picker.tsx";

/** The entry picker, loaded after hydration only (never on a page's first load). */
const EntryPicker = lazy(() => import("./entry-picker.tsx"));

/**
 * Related encyclopedia entries of an editor (the writing editor, the ask page): the entry picker
 * once the page is hydrated, and without JavaScript (or while the picker loads) a box of entry
 * numbers separated by commas. Both post `related_entries`.
 */
export function RelatedEntriesField({
  id,
  label,
  hint,
  idsHint,
  hydrated,
  initialIds,
  initial,
  circleId,
  error,
  onChange,
}: {
  id: string;
  label: string;
  /** The hint beside the picker. */
  hint?: string;
  /** The hint beside the box of numbers. */
  idsHint: string;
  hydrated: boolean;
  initialIds: string;
  initial: PickedEntry[];
  circleId: number;
  error?: string;
  onChange(): void;
}) {
  const idsBox = (
    <input
      id={id}
      name="related_entries"
      className="text-input"
      defaultValue={initialIds}
      inputMode="numeric"
      {...describedBy(id, error, idsHint)}
    />
  );
  return (
    <FormField id={id} label={label} error={error} hint={hydrated ? hint : idsHint}>
      {hydrated ? (
        <Suspense fallback={idsBox}>
          <EntryPicker
            id={id}
            name="related_entries"
            initial={initial}
            circleId={circleId}
            invalid={Boolean(error)}
            describedById={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
            onChange={onChange}
          />
        </Suspense>
      ) : (
        idsBox
      )}
    </FormField>
  );
}

/** An editor's circle categories (and their subclasses) as checkboxes posting `categories`. */
export function CategoryChoices({
  id,
  legend,
  categories,
  checked,
  error,
}: {
  id: string;
  legend: string;
  categories: CategoryView[];
  checked: number[];
  error?: string;
}) {
  if (categories.length === 0) return null;
  return (
    <fieldset className="form-field choice-group">
      <legend>{legend}</legend>
      {categories
        .flatMap((category) => [category, ...category.children])
        .map((category) => (
          <label key={category.id} className="checkbox-label">
            <input type="checkbox" name="categories" value={category.id} defaultChecked={checked.includes(category.id)} /> {category.name}
          </label>
        ))}
      {error ? (
        <div className="form-error" role="alert" data-field-error={id}>
          {error}
        </div>
      ) : null}
    </fieldset>
  );
}
