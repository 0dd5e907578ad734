import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CircleLogo, circleInitial } from "./circle-logo.tsx";

const render = (circle: { id: number; name: string; logo: string | null }, locale: string, alt?: string) =>
  renderToStaticMarkup(createElement(CircleLogo, { circle, size: 44, locale, alt }));

describe("circle logo", () => {
  it("shows a circle's SVG logo as an image", () => {
    // (React adds a preload link before a lone image.)
    expect(render({ id: 2, name: "Mathematics", logo: "/circle-logos/mathematics.svg" }, "en")).toContain(
      '<img class="circle-logo" src="/circle-logos/mathematics.svg" alt="" width="44" height="44"/>',
    );
  });

  it("shows the first letter of the name in the page's language for a circle without a logo", () => {
    const english = render({ id: 12, name: "chess club", logo: null }, "en");
    expect(english).toMatch(/^<span class="circle-logo circle-letter"[^>]*aria-hidden="true">C<\/span>$/);
    expect(render({ id: 12, name: "国际象棋", logo: null }, "zh-CN")).toMatch(/>国<\/span>$/);
    // On the circle's own page the letter stands for the logo and is named like it.
    expect(render({ id: 12, name: "Chess", logo: null }, "en", "Logo of Chess")).toMatch(/role="img" aria-label="Logo of Chess">C</);
  });

  it("never shows an emoji: a stored emoji logo becomes the letter, and names starting with one use their first letter", () => {
    expect(render({ id: 1, name: "Global Village", logo: "🌏" }, "en")).toMatch(/>G<\/span>$/);
    expect(circleInitial("🔒 Security", "en")).toBe("S");
    expect(circleInitial("ångström", "en")).toBe("Å");
  });
});
