import type { SVGProps } from "react";
import { useTranslation } from "../lib/i18n.tsx";

export type Currency = "sinecoin" | "gold";

function CoinBase({ children, ...props }: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" width="1.1em" height="1.1em" aria-hidden="true" focusable="false" className="coin-icon" {...props}>
      {children}
    </svg>
  );
}

/** The sinecoin: a blue coin with one period of a sine wave. */
export function SinecoinIcon() {
  return (
    <CoinBase>
      <circle cx="12" cy="12" r="10" fill="#1E90FF" />
      <circle cx="12" cy="12" r="8" fill="none" stroke="#fff" strokeOpacity="0.5" strokeWidth="1" />
      <path d="M5.5 12c1.6-5 3.6-5 5.2 0s3.6 5 5.2 0 1.3-2.2 2.6-2.2" fill="none" stroke="#fff" strokeWidth="1.8" strokeLinecap="round" />
    </CoinBase>
  );
}

/** Gold: a golden coin with a star. */
export function GoldIcon() {
  return (
    <CoinBase>
      <circle cx="12" cy="12" r="10" fill="#E3A008" />
      <circle cx="12" cy="12" r="8" fill="none" stroke="#fff" strokeOpacity="0.6" strokeWidth="1" />
      <path d="m12 6.5 1.6 3.4 3.7.4-2.8 2.5.8 3.6L12 14.6l-3.3 1.8.8-3.6-2.8-2.5 3.7-.4z" fill="#fff" />
    </CoinBase>
  );
}

/**
 * A whole amount with its coin and, for screen readers, the currency's name; `signed` shows
 * `+20` / `-20` for wallet lines.
 */
export function Amount({ value, currency, signed = false }: { value: number; currency: Currency; signed?: boolean }) {
  const { t } = useTranslation("common");
  const text = signed && value > 0 ? `+${value}` : String(value);
  return (
    <span className={`amount amount-${currency}${signed ? (value < 0 ? " amount-out" : " amount-in") : ""}`}>
      {currency === "sinecoin" ? <SinecoinIcon /> : <GoldIcon />}
      <span className="amount-value">{text}</span>
      <span className="visually-hidden"> {t(`currency.${currency}`)}</span>
    </span>
  );
}
