import { useTranslation } from "../lib/i18n.tsx";
import { Amount } from "./coins.tsx";
import "../lib/missions-catalog.ts";

export type ClaimAnswerData = { claimed: { currency: "gold" | "sinecoin"; amount: number } } | { error?: string } | undefined;

/** What a Claim did: the reward paid, or why not (already claimed, not completed). */
export function ClaimAnswer({ answer }: { answer: unknown }) {
  const { t } = useTranslation("missions");
  const value = answer as ClaimAnswerData;
  if (!value) return null;
  if ("claimed" in value)
    return (
      <p role="status" className="mission-claimed" data-testid="mission-claimed">
        {t("claimed_notice")} <Amount value={value.claimed.amount} currency={value.claimed.currency} signed />
      </p>
    );
  return value.error ? <p role="alert">{value.error}</p> : null;
}
