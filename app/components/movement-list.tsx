import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { Amount } from "./coins.tsx";
import "../lib/wallet-catalog.ts";

/** A wallet line as the API presents it (features/wallet/operations.ts). */
export interface MovementLine {
  id: number;
  kind: string;
  currency: "sinecoin" | "gold";
  amount: number;
  created_at: string;
  title: string | null;
  url: string | null;
  counterparty: string | null;
}

/** The kinds whose text depends on the direction (a tip given or received). */
const directed = new Set(["tip", "unlock", "unlock_refund"]);

function describe(line: MovementLine, t: (key: string, values?: Record<string, unknown>) => string): string {
  const key = directed.has(line.kind) ? `${line.kind}_${line.amount < 0 ? "out" : "in"}` : line.kind;
  const text = t(`kind.${key}`, { title: line.title ?? "", counterparty: line.counterparty ?? "", defaultValue: "" });
  return text || t("kind.other");
}

/** Wallet lines: what each was (linking to it), the signed amount with its coin, when. */
export function MovementList({ lines }: { lines: MovementLine[] }) {
  const { t, i18n } = useTranslation("wallet");
  const locale = i18n.language as Locale;
  if (lines.length === 0) return <p className="muted">{t("list.empty")}</p>;
  return (
    <ol className="movement-list" data-testid="wallet-movements" aria-label={t("list.label")}>
      {lines.map((line) => {
        const text = describe(line, t);
        return (
          <li key={line.id} className="movement" data-kind={line.kind}>
            <span className="movement-what">{line.url ? <Link to={localizePath(line.url, locale)}>{text}</Link> : text}</span>
            <Amount value={line.amount} currency={line.currency} signed />
            <time className="muted" dateTime={line.created_at}>
              {formatDate(line.created_at, locale, { dateStyle: "medium", timeStyle: "short" })}
            </time>
          </li>
        );
      })}
    </ol>
  );
}
