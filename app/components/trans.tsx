import { cloneElement, Fragment, type ReactElement, type ReactNode } from "react";
import { interpolate, type TFunction } from "../../common/i18n.ts";

const tag = /<(\d+)>(.*?)<\/\1>/g;

/**
 * A message with elements inside it: `"Joined the circle <0>{{name}}</0>"` with
 * `components={[<Link to="…" />]}` prints the link around the circle's name. The tags are read
 * from the catalog's text before the values go in, so a value can never open an element.
 */
export function Trans({
  t,
  i18nKey,
  values,
  components,
}: {
  t: TFunction;
  /** A key, or keys tried in order (the first the catalog has). */
  i18nKey: string | readonly string[];
  values: Record<string, unknown>;
  components: ReactElement<{ children?: ReactNode }>[];
}) {
  const template = t(i18nKey);
  const parts: ReactNode[] = [];
  let at = 0;
  for (const match of template.matchAll(tag)) {
    if (match.index > at) parts.push(interpolate(template.slice(at, match.index), values));
    const element = components[Number(match[1])];
    const inner = interpolate(match[2] ?? "", values);
    parts.push(element ? cloneElement(element, { key: parts.length }, inner) : inner);
    at = match.index + match[0].length;
  }
  if (at < template.length) parts.push(interpolate(template.slice(at), values));
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>{part}</Fragment>
      ))}
    </>
  );
}
