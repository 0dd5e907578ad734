import type { ReactNode } from "react";
import { Amount, SinecoinIcon, type Currency } from "./coins.tsx";

interface AmountChoiceProps {
  legend: string;
  /** The label of the custom choice and of its number field. */
  customLabel: string;
  presets: readonly number[];
  /** The ticked choice: a preset as text, or `custom`. */
  choice: string;
  /** The custom amount sent before, shown again after a refusal. */
  custom?: string;
  min: number;
  max: number;
  /** The id of what describes the custom amount (its hint), and whether it was refused. */
  describedBy?: string;
  invalid?: boolean;
  /** Below the custom amount, inside the fieldset: its hint and its error. */
  children?: ReactNode;
}

/**
 * The amount of a sinecoin form (a tip, a top-up): preset amounts as selectable cards (radios
 * underneath), a custom card whose number field shows only once it is chosen, sent as `choice` and `custom_amount` (read back by `readAmountChoice`).
 */
export function AmountChoice({
  legend,
  customLabel,
  presets,
  choice,
  custom,
  min,
  max,
  describedBy,
  invalid,
  children,
}: AmountChoiceProps) {
  return (
    <fieldset className="amount-choice">
      <legend>{legend}</legend>
      <div className="amount-cards">
        {presets.map((preset) => (
          <label key={preset} className="amount-card">
            <input className="amount-card-input" type="radio" name="choice" value={preset} defaultChecked={choice === String(preset)} />
            <SinecoinIcon /> <span className="amount-card-value">{preset}</span>
          </label>
        ))}
        <label className="amount-card amount-card-custom">
          <input className="amount-card-input" type="radio" name="choice" value="custom" defaultChecked={choice === "custom"} />
          {customLabel}
        </label>
      </div>
      {/* Shown by CSS only while the custom card is chosen (no script needed). */}
      <div className="amount-custom">
        <label>
          {customLabel}
          <input
            type="number"
            name="custom_amount"
            min={min}
            max={max}
            step={1}
            inputMode="numeric"
            defaultValue={custom}
            aria-describedby={describedBy}
            aria-invalid={invalid ? true : undefined}
          />
        </label>
        {children}
      </div>
    </fieldset>
  );
}

/** A balance with its label ("当前余额" / "Your balance"), never a bare number. */
export function BalanceLine({ label, value, currency = "sinecoin" }: { label: string; value: number; currency?: Currency }) {
  return (
    <p className="balance-line" data-testid="balance-line">
      <span className="balance-label">{label}</span>
      <Amount value={value} currency={currency} />
    </p>
  );
}

/**
 * What an `AmountChoice` sent: the choice and the custom text as typed (to show again), and the
 * amount (a whole number when it reads as one, else the text, for the schema to refuse).
 */
export function readAmountChoice(form: FormData): { choice: string; custom: string; amount: number | string } {
  const choice = String(form.get("choice") ?? "");
  const custom = String(form.get("custom_amount") ?? "").trim();
  const amountText = choice === "custom" ? custom : choice;
  return { choice, custom, amount: /^\d{1,9}$/.test(amountText) ? Number(amountText) : amountText };
}
