import katex from "katex";
import { fromHtml } from "hast-util-from-html";
const formulas = [
  String.raw`\sqrt{x^2+1}`, String.raw`\sqrt[3]{x}`, String.raw`\frac{a}{b}`, String.raw`\dfrac{1}{2}`, String.raw`\sum_{i=0}^n i^2`, String.raw`\int_0^\infty e^{-x}\,dx`,
  String.raw`\begin{pmatrix}1&2\\3&4\end{pmatrix}`, String.raw`\begin{aligned}a&=b\\c&=d\end{aligned}`, String.raw`\begin{array}{c|c}a&b\\\hline c&d\end{array}`,
  String.raw`\overrightarrow{AB}`, String.raw`\widehat{xyz}`, String.raw`\overbrace{a+b}^{n}`, String.raw`\underbrace{a+b}_{n}`, String.raw`\xrightarrow{f}`, String.raw`\cancel{x}`, String.raw`\bcancel{x}`, String.raw`\xcancel{x}`, String.raw`\boxed{x}`, String.raw`\fbox{x}`,
  String.raw`\color{red}{x}`, String.raw`\textcolor{#ff0000}{y}`, String.raw`\colorbox{yellow}{z}`, String.raw`\fcolorbox{red}{blue}{w}`, String.raw`\left(\frac{a}{b}\right)`, String.raw`\Bigg[`, String.raw`\mathbb{R}\mathcal{L}\mathfrak{g}\mathscr{A}\mathrm{d}\mathbf{v}\mathsf{s}\mathtt{t}`,
  String.raw`\text{hello 你好}`, String.raw`\hspace{1em}\kern2em\mkern3mu`, String.raw`\rule{1em}{2em}`, String.raw`\raisebox{0.5em}{x}`, String.raw`\tag{1} x`, String.raw`\href{https://a.b}{x}`, String.raw`\url{https://a.b}`, String.raw`\htmlClass{x}{y}`, String.raw`\htmlStyle{color:red}{y}`,
  String.raw`\begin{cases}a&b\\c&d\end{cases}`, String.raw`\not= \neq \ne`, String.raw`\stackrel{a}{=}`, String.raw`\overset{a}{b}\underset{c}{d}`, String.raw`\phantom{x}\vphantom{y}\hphantom{z}`, String.raw`\smash{x}`, String.raw`\large x \Huge y \tiny z`, String.raw`\displaystyle x \scriptstyle y`, String.raw`\binom{n}{k}`, String.raw`\tfrac12`, String.raw`\lim_{x\to0}`, String.raw`\operatorname{foo}`, String.raw`a\\b`, String.raw`\begin{matrix}a\end{matrix}`, String.raw`\begin{equation}a\end{equation}`, String.raw`\begin{gather}a\\b\end{gather}`, String.raw`\begin{CD}A @>a>> B\end{CD}`, String.raw`\vec{x}\hat{y}\tilde{z}\bar{w}\dot{a}\ddot{b}`, String.raw`\utilde{AB}`, String.raw`\overline{AB}\underline{CD}`, String.raw`\angl{n}`, String.raw`\sout{abc}`, String.raw`\ce{H2O}`, String.raw`\mathllap{x}\mathrlap{y}\clap{z}`, String.raw`\verb|x|`, String.raw`\char"41`, String.raw`\includegraphics{x.png}`, String.raw`x^{\prime}`, String.raw`\xleftrightarrow[abc]{def}`, String.raw`\oint \iint \iiint`, String.raw`\bigl( \bigr)`, String.raw`\mathring{A}`, String.raw`\colon \cdots \ldots \vdots \ddots`, String.raw`\begin{Bmatrix}a\end{Bmatrix}\begin{vmatrix}a\end{vmatrix}\begin{Vmatrix}a\end{Vmatrix}`, String.raw`\begin{smallmatrix}a\end{smallmatrix}`, String.raw`\begin{darray}{cc}a&b\end{darray}`, String.raw`\begin{alignat}{2}a&=b\end{alignat}`, String.raw`\begin{subarray}{c}a\end{subarray}`, String.raw`\begin{rcases}a\end{rcases}`,
  String.raw`\undefinedcmd`, String.raw`\frac{`, String.raw`x \llap{y}`, String.raw`\mathit{x} \boldsymbol{\alpha} \pmb{x}`, String.raw`\bra{x}\ket{y}`, String.raw`\enclose{circle}{x}`, String.raw`\longdiv{x}`, String.raw`\textbf{a}\textit{b}\texttt{c}\textsf{d}\textrm{e}\textup{f}\textnormal{g}\emph{h}`, String.raw`\underleftarrow{AB}\overleftrightarrow{AB}\overgroup{AB}\undergroup{AB}\underlinesegment{AB}\overlinesegment{AB}\overleftharpoon{AB}\Overrightarrow{AB}`, String.raw`\xmapsto{a}\xhookleftarrow{b}\xRightarrow{c}\xlongequal{d}\xtwoheadrightarrow{e}\xtofrom{f}\xrightleftharpoons{g}`, String.raw`\widecheck{abc}\widetilde{abc}`,
];
const tags = new Map<string, Set<string>>();
const classes = new Set<string>();
const styleProps = new Map<string, Set<string>>();
function walk(node: any) {
  if (node.type === "element") {
    const s = tags.get(node.tagName) ?? new Set(); tags.set(node.tagName, s);
    for (const [k, v] of Object.entries(node.properties ?? {})) {
      s.add(k);
      if (k === "className") for (const c of v as string[]) classes.add(c);
      if (k === "style") for (const decl of String(v).split(";").filter(Boolean)) { const [p, ...rest] = decl.split(":"); const set = styleProps.get(p!) ?? new Set(); styleProps.set(p!, set); if (set.size < 6) set.add(rest.join(":")); }
    }
  }
  for (const c of node.children ?? []) walk(c);
  if (node.content) walk(node.content);
}
for (const f of formulas) {
  for (const displayMode of [false, true]) {
    let html: string;
    try { html = katex.renderToString(f, { displayMode, throwOnError: false, strict: "ignore", trust: false, maxExpand: 100, maxSize: 20 }); } catch (e) { console.log("THROW", f, String(e)); continue; }
    walk(fromHtml(html, { fragment: true }));
  }
}
for (const [t, a] of [...tags].sort()) console.log(t, [...a].sort().join(" "));
console.log("STYLE"); for (const [p, v] of [...styleProps].sort()) console.log(p, [...v].join(" | "));
console.log("CLASSES", [...classes].sort().join(" "));
