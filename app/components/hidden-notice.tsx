import { useTranslation } from "../lib/i18n.tsx";

/** The notice a hidden subject's page shows its author and moderators (nobody else can open it). */
export function HiddenNotice({ state }: { state: "pending" | "hidden" | null | undefined }) {
  const { t } = useTranslation("interactions");
  if (!state) return null;
  return (
    <p className="notice notice-warning" role="status" data-testid="hidden-notice">
      {t(`hidden.${state}`)}
    </p>
  );
}
