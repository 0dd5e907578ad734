import { useEffect, useRef } from "react";
import { useTranslation } from "../lib/i18n.tsx";
import { enhanceCodeBlocks } from "./code-blocks.ts";
import katexStyles from "katex/dist/katex.min.css?url";
import type { TocItem } from "../../features/content/schema.ts";
import contentStyles from "../styles/content.css?url";

// Its texts (`content:` keys) come with the language's core catalogs (common/i18n-core-*.ts).

/**
 * Stylesheets for rendered content: KaTeX's (its fonts are served from our assets, which the
 * Content-Security-Policy's `font-src 'self'` allows) and ours. A route that shows content adds
 * them to its links: `export const links = () => [...contentStylesheets];`.
 */
export const contentStylesheets = [
  { rel: "stylesheet", href: katexStyles },
  { rel: "stylesheet", href: contentStyles },
];

/**
 * HTML produced by `renderMarkdown` (features/content), stored with the content. Only that
 * pipeline's output may be passed here: it is inserted as it is.
 */
export function RenderedContent({ html, lang, className }: { html: string; lang?: string; className?: string }) {
  const { t } = useTranslation("content");
  const ref = useRef<HTMLDivElement>(null);
  const copy = t("copy_code");
  const copied = t("code_copied");
  const label = t("copy_code_label");
  // After hydration only: code blocks get their copy button (none without JavaScript).
  useEffect(() => enhanceCodeBlocks(ref.current, { copy, copied, label }), [html, copy, copied, label]);
  return (
    <div
      ref={ref}
      className={className ? `rendered-content ${className}` : "rendered-content"}
      lang={lang}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

/** The headings of a rendered document as in-page links, indented from its topmost level. */
export function TableOfContents({ items, className }: { items: TocItem[]; className?: string }) {
  const { t } = useTranslation("content");
  if (items.length === 0) return null;
  const top = Math.min(...items.map((item) => item.depth));
  return (
    <nav className={className ? `content-toc ${className}` : "content-toc"} aria-labelledby="content-toc-title">
      {/* Folded above the text (on phones, and in a chapter); a wide writing page shows it open
          in its side column (CSS opens the fold there). */}
      <details className="content-toc-fold" data-testid="toc-fold">
        <summary>
          <h2 id="content-toc-title" className="content-toc-title">
            {t("contents")}
          </h2>
        </summary>
        <ol>
          {items.map((item) => (
            <li key={item.id} className={`content-toc-depth-${item.depth - top + 1}`}>
              <a href={`#${encodeURIComponent(item.id)}`}>{item.text}</a>
            </li>
          ))}
        </ol>
      </details>
    </nav>
  );
}

/** "约 3 分钟读完" / "3 min read". */
export function ReadingTime({ minutes }: { minutes: number }) {
  const { t } = useTranslation("content");
  return <span className="content-reading-time">{t("reading_minutes", { count: minutes })}</span>;
}
