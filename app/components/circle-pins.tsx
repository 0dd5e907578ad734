import { Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { localizePath, type Locale } from "../../common/locale.ts";
import type { PinnedItem } from "../../features/circles/pins.ts";
import "../lib/circles-catalog.ts";

/** The "Pinned" mark beside a pinned item's title. */
export function PinnedMark() {
  const { t } = useTranslation("circles");
  return <span className="pinned-mark">{t("page.pinned_mark")}</span>;
}

/** Pin or unpin one item of the circle: a plain form post to the circle page (works without JavaScript). */
export function PinToggle({
  circleId,
  type,
  id,
  pinned,
  csrfToken,
}: {
  circleId: number;
  type: PinnedItem["type"];
  id: number;
  pinned: boolean;
  csrfToken: string;
}) {
  const { t, i18n } = useTranslation("circles");
  const locale = i18n.language as Locale;
  return (
    <Form method="post" action={localizePath(`/circles/${circleId}`, locale)} className="inline-form pin-form" preventScrollReset>
      <input type="hidden" name="csrftoken" value={csrfToken} />
      <input type="hidden" name="type" value={type} />
      <input type="hidden" name="id" value={id} />
      <button
        type="submit"
        name="intent"
        value={pinned ? "unpin" : "pin"}
        className="button button-small"
        data-testid={`${pinned ? "unpin" : "pin"}-${type}-${id}`}
      >
        {t(pinned ? "page.unpin" : "page.pin")}
      </button>
    </Form>
  );
}

/** The circle's pinned items, above its content, each with its mark (and, for moderators, Unpin). */
export function PinnedList({ circleId, pins, csrfToken }: { circleId: number; pins: PinnedItem[]; csrfToken: string | null }) {
  const { t, i18n } = useTranslation("circles");
  const locale = i18n.language as Locale;
  if (pins.length === 0) return null;
  return (
    <section className="pinned" aria-labelledby="pinned-title">
      <h2 id="pinned-title" className="visually-hidden">
        {t("page.pinned_title")}
      </h2>
      <ol className="pinned-list" data-testid="pinned-list">
        {pins.map((pin) => (
          <li key={`${pin.type}-${pin.id}`}>
            <PinnedMark /> <span className="role-badge">{t(`page.pin_type_${pin.type}`)}</span>{" "}
            <Link to={localizePath(pin.path, locale)}>{pin.title}</Link>
            {csrfToken ? <PinToggle circleId={circleId} type={pin.type} id={pin.id} pinned csrfToken={csrfToken} /> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
