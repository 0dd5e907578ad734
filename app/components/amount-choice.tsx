import type { ReactNode } from "react";
import { SinecoinIcon } from "./coins.tsx";

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
 * The amount of a sinecoin form (a tip, a top-up): preset radios, a custom choice and its number
 * field, sent as `choice` and `custom_amount` (read back by `readAmountChoice`).
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
    <fieldset>
      <legend>{legend}</legend>
      <div className="recharge-presets">
        {presets.map((preset) => (
          <label key={preset} className="recharge-option">
            <input type="radio" name="choice" value={preset} defaultChecked={choice === String(preset)} />
            <SinecoinIcon /> {preset}
          </label>
        ))}
        <label className="recharge-option">
          <input type="radio" name="choice" value="custom" defaultChecked={choice === "custom"} />
          {customLabel}
        </label>
      </div>
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
    </fieldset>
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
