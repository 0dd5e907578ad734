import { defaultSchema, type Schema } from "hast-util-sanitize";

/**
 * The two sanitizer schemas of the pipeline (see render.server.ts for where each runs).
 *
 * `authorSchema` cleans what the author wrote (Markdown and raw HTML) before KaTeX and Shiki run:
 * GitHub's schema, plus a few more elements dropped with their content. It allows no `style` and
 * no classes beyond GitHub's, so an author can never imitate KaTeX or Shiki markup.
 *
 * `outputSchema` checks the finished tree: GitHub's schema extended exactly for KaTeX
 * (HTML + MathML output, its classes, inline styles from a fixed list of properties, and the
 * SVG it draws for roots, arrows and braces) and Shiki (classes, and `style` holding only its
 * colour variables). Ids must already carry the `user-content-` prefix that the first pass gave
 * them, so nothing is prefixed twice.
 */

/** Dropped together with their content (GitHub's schema would keep the text of most of them). */
const strippedElements = ["script", "style", "template", "noscript", "textarea", "title", "xmp", "iframe", "object", "embed", "select", "option"];

export const clobberPrefix = "user-content-";

export const authorSchema: Schema = {
  ...defaultSchema,
  strip: strippedElements,
  // `<source srcset>` could load images from anywhere: only `<img>`, whose source we check, may.
  tagNames: defaultSchema.tagNames!.filter((name) => name !== "source"),
};

/** Every class KaTeX 0.19 emits (its stylesheet's classes plus the atom classes it does not style). */
const katexClasses = [
  "accent-body", "accent-full", "accentunder", "amsrm", "angl", "anglpad", "arraycolsep", "base", "boldsymbol", "boxpad",
  "brace-center", "brace-left", "brace-right", "cancel-lap", "cancel-pad", "cd-arrow-pad", "cd-label-left", "cd-label-right",
  "cd-vert-arrow", "cjk_fallback", "clap", "col-align-c", "col-align-l", "col-align-r", "colorbox", "delim-size1",
  "delim-size4", "delimcenter", "delimsizing", "eqn-num", "fbox", "fcolorbox", "fleqn", "fontsize-ensurer", "frac-line",
  "halfarrow-left", "halfarrow-right", "hide-tail", "katex", "katex-accent", "katex-base", "katex-display", "katex-error",
  "katex-fix", "katex-hdashline", "katex-hline", "katex-html", "katex-inner", "katex-mathml", "katex-newline",
  "katex-overlay", "katex-overline", "katex-root", "katex-rule", "katex-sizing", "katex-smash", "katex-sout",
  "katex-stretchy", "katex-strut", "katex-tag", "katex-thinbox", "katex-underline", "katex-vbox", "large-op", "leqno",
  "llap", "mainrm", "mathbb", "mathbf", "mathboldfrak", "mathboldsf", "mathcal", "mathfrak", "mathit", "mathitsf",
  "mathnormal", "mathrm", "mathscr", "mathsf", "mathsfit", "mathtt", "mbin", "mclose", "mfrac", "minner", "mml-eqn-num",
  "mop", "mopen", "mord", "mover", "mpunct", "mrel", "mspace", "msupsub", "mtable", "mtight", "mtr-glue", "mult", "munder",
  "nobreak", "nulldelimiter", "op-limits", "op-symbol", "overline-line", "pstrut", "reflectbox",
  ...Array.from({ length: 11 }, (_, index) => `reset-size${index + 1}`),
  "rlap",
  ...Array.from({ length: 11 }, (_, index) => `size${index + 1}`),
  "sizing", "small-op", "sqrt", "strut", "svg-align", "text", "textbb", "textbf", "textboldfrak", "textboldsf", "textfrak",
  "textit", "textitsf", "textrm", "textscr", "textsf", "texttt", "textup", "underline-line", "vertical-separator", "vlist",
  "vlist-r", "vlist-s", "vlist-t", "vlist-t2", "x-arrow", "x-arrow-pad",
];

/** Shiki's classes with our two themes (github-light, github-dark). */
const shikiClasses = ["shiki", "shiki-themes", "github-light", "github-dark", "line"];

/**
 * One CSS value token: a number with an optional unit, a hex colour or a keyword. No parentheses,
 * quotes, backslashes or colons, so no `url()`, `expression()`, `var()` or escapes.
 */
const valueToken = String.raw`(?:-?(?:\d+\.?\d*|\.\d+)(?:em|ex|px|pt|mu|%)?|#[0-9a-fA-F]{3,8}|[a-zA-Z][a-zA-Z-]*)`;
/** Properties KaTeX writes inline (sizes, offsets, borders and \color / \colorbox colours). */
const katexProperties = [
  "background-color", "border", "border-bottom-width", "border-color", "border-right-style", "border-right-width",
  "border-style", "border-top-width", "border-width", "bottom", "color", "height", "left", "margin", "margin-left",
  "margin-right", "min-width", "padding-left", "text-shadow", "top", "vertical-align", "width",
];
/** Shiki with `defaultColor: false` writes only these variables (colours and font styles per theme). */
const shikiProperty = String.raw`--shiki-(?:light|dark)(?:-bg|-font-style|-font-weight|-text-decoration)?`;
const declaration = String.raw`(?:(?:${katexProperties.join("|")}|${shikiProperty}) ?: ?${valueToken}(?: ${valueToken})*|position ?: ?relative)`;
/** A whole `style` attribute: declarations from the lists above, separated by semicolons. */
export const generatedStyle = new RegExp(String.raw`^ ?(?:${declaration} ?; ?)*(?:${declaration})? ?;?$`);

const idPattern = new RegExp(`^${clobberPrefix}`);

/** GitHub's global attributes, with the clobbered ones (ids, names) allowed only with their prefix. */
const globalAttributes = [
  ...defaultSchema.attributes!["*"]!.filter((definition) => definition !== "id" && definition !== "name"),
  ["id", idPattern],
  ["name", idPattern],
] as NonNullable<Schema["attributes"]>[string];

/** MathML elements KaTeX writes, and the presentation attributes it sets on them. */
const mathElements = [
  "math", "semantics", "annotation", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msup", "msub", "msubsup", "mfrac",
  "msqrt", "mroot", "mover", "munder", "munderover", "mtable", "mtr", "mtd", "mpadded", "mphantom", "mstyle", "menclose",
  "mglyph", "mlabeledtr",
];
const mathAttributes = [
  "accent", "accentunder", "columnalign", "columnlines", "columnspacing", "depth", "displaystyle", "fence", "height",
  "linebreak", "linethickness", "lspace", "mathbackground", "mathcolor", "mathsize", "mathvariant", "maxsize", "minsize",
  "notation", "rowlines", "rowspacing", "rspace", "scriptlevel", "separator", "stretchy", "voffset", "width", "symmetric",
  "largeop", "movablelimits", "side", "minlabelspacing",
];

export const outputSchema: Schema = {
  ...authorSchema,
  clobber: [],
  tagNames: [...authorSchema.tagNames!, ...mathElements, "svg", "path", "line"],
  attributes: {
    ...defaultSchema.attributes,
    "*": globalAttributes,
    a: [...defaultSchema.attributes!.a!, ["rel", "nofollow", "ugc", "noopener"]],
    code: [["className", /^language-[\w+#.-]+$/]],
    img: [...defaultSchema.attributes!.img!, ["loading", "lazy"]],
    pre: [["className", ...shikiClasses], ["style", generatedStyle]],
    span: [["className", ...katexClasses, ...shikiClasses], ["style", generatedStyle], ["ariaHidden", "true"]],
    ...Object.fromEntries(mathElements.map((name) => [name, [...mathAttributes, ["style", generatedStyle]]])),
    math: [["xmlns", "http://www.w3.org/1998/Math/MathML"], ["display", "block", "inline"]],
    annotation: [["encoding", "application/x-tex"]],
    mtd: [...mathAttributes, ["className", ...katexClasses]],
    svg: [["xmlns", "http://www.w3.org/2000/svg"], "width", "height", "viewBox", "preserveAspectRatio", ["style", generatedStyle]],
    path: ["d"],
    line: ["x1", "x2", "y1", "y2", "strokeWidth"],
  },
};
