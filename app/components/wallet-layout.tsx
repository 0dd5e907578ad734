import type { ReactNode } from "react";
import { SectionLayout } from "./section-layout.tsx";
import "../lib/wallet-catalog.ts";

const sections = [
  { path: "/wallet", key: "home", end: true },
  { path: "/wallet/sinecoin", key: "sinecoin", end: true },
  { path: "/wallet/reward", key: "reward", end: true },
  { path: "/wallet/accounts", key: "accounts", end: true },
  { path: "/wallet/sinecoin_recharge", key: "recharge", end: true },
  { path: "/monetization/cashout", key: "cashout", end: true },
  { path: "/shop", key: "shop", end: true },
] as const;

/** The wallet's frame: its pages on the side (above on phones), the page beside them. */
export function WalletLayout({ children }: { children: ReactNode }) {
  return (
    <SectionLayout namespace="wallet" sections={sections} className="wallet-layout">
      {children}
    </SectionLayout>
  );
}
