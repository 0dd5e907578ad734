import { useTranslation } from "../lib/i18n.tsx";
import type { UserTypeKey } from "../../features/profiles/presenter.ts";

/** Registered, Official, VIP or SVIP (spec section 3), as a small coloured label. */
export function UserTypeBadge({ type }: { type: UserTypeKey }) {
  const { t } = useTranslation("centre");
  return (
    <span className={`user-type-badge user-type-${type}`} title={t("profile.badge_label")} data-testid="user-type-badge">
      {t(`profile.type_${type}`)}
    </span>
  );
}
