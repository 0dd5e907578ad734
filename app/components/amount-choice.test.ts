import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AmountChoice, readAmountChoice } from "./amount-choice.tsx";

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

describe("amount choice", () => {
  it("reads a preset, or the custom amount when `custom` is ticked; text that is no whole number is left for the schema to refuse", () => {
    expect(readAmountChoice(form({ choice: "50", custom_amount: "7" }))).toEqual({ choice: "50", custom: "7", amount: 50 });
    expect(readAmountChoice(form({ choice: "custom", custom_amount: " 7 " }))).toEqual({ choice: "custom", custom: "7", amount: 7 });
    expect(readAmountChoice(form({ choice: "custom", custom_amount: "1.5" })).amount).toBe("1.5");
    expect(readAmountChoice(form({}))).toEqual({ choice: "", custom: "", amount: "" });
  });

  it("ticks the chosen preset and shows the custom amount sent before, described by its hint when it has one", () => {
    const render = (extra: { describedBy?: string; invalid?: boolean }) =>
      renderToStaticMarkup(
        createElement(AmountChoice, {
          legend: "Amount",
          customLabel: "Custom",
          presets: [10, 50],
          choice: "50",
          custom: "3",
          min: 1,
          max: 500,
          ...extra,
        }),
      );
    const plain = render({});
    expect(plain).toContain('<input class="amount-card-input" type="radio" name="choice" checked="" value="50"/>');
    expect(plain).toContain('value="3"');
    expect(plain).toContain('<input type="number" min="1" max="500" step="1" inputMode="numeric" name="custom_amount" value="3"/>');
    expect(render({ describedBy: "custom-hint", invalid: true })).toContain('aria-describedby="custom-hint" aria-invalid="true"');
  });
});
