/** Backgrounds for letter avatars: white letters on each keep at least 4.5:1. */
const letterColors = ["#0A6CD0", "#6C5CE7", "#C0392B", "#00875A", "#B25E09", "#2D3436", "#AD1457", "#5B5FC7"];

/** A circle's own colour (its letter logo's background; drawn book covers take it too). */
export function circleColor(circleId: number): string {
  return letterColors[circleId % letterColors.length]!;
}

/** The first letter or digit of a name, as the page shows it ("Poetry" → "P", "诗歌" → "诗"). */
export function circleInitial(name: string, locale: string): string {
  const first = Array.from(name).find((character) => /[\p{L}\p{N}]/u.test(character)) ?? "?";
  return first.toLocaleUpperCase(locale);
}

/** A logo is a picture's address; anything else (say an emoji an old version stored) is not shown. */
function isImageAddress(logo: string): boolean {
  return /^(\/(?!\/)|https:\/\/)/.test(logo);
}

/**
 * A circle's logo: its image (SVG, never an emoji, which shows as an empty box without an emoji
 * font), or for a circle without one the first letter of its name in the page's language.
 */
export function CircleLogo({
  circle,
  size,
  locale,
  alt = "",
}: {
  circle: { id: number; name: string; logo: string | null };
  size: number;
  locale: string;
  alt?: string;
}) {
  if (circle.logo && isImageAddress(circle.logo))
    return <img className="circle-logo" src={circle.logo} alt={alt} width={size} height={size} />;
  const style = { width: size, height: size, fontSize: Math.round(size * 0.5), background: circleColor(circle.id) };
  return (
    <span className="circle-logo circle-letter" style={style} {...(alt ? { role: "img", "aria-label": alt } : { "aria-hidden": true })}>
      {circleInitial(circle.name, locale)}
    </span>
  );
}
