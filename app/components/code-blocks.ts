/**
 * The copy button of rendered code blocks, added in the browser once the page has hydrated (so
 * without JavaScript there is no button that cannot work). Each Shiki block is wrapped in a
 * `.code-block` holding the button; a click copies the block's text and says "copied" for
 * `copiedMs` (spec §9: 1,500 ms). Blocks inside content whose author disabled copying get none.
 * Returns the undo (the effect's clean-up), which puts the blocks back as they were.
 */
export const copiedMs = 1500;

export interface CopyTexts {
  copy: string;
  copied: string;
  label: string;
}

async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) return navigator.clipboard.writeText(text);
  // Pages served over plain HTTP have no asynchronous clipboard.
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  try {
    if (!document.execCommand("copy")) throw new Error("copy refused");
  } finally {
    area.remove();
  }
}

export function enhanceCodeBlocks(container: HTMLElement | null, texts: CopyTexts): () => void {
  if (!container || container.closest("[data-disable-copy]")) return () => {};
  const undo: (() => void)[] = [];
  for (const pre of Array.from(container.querySelectorAll<HTMLPreElement>("pre.shiki"))) {
    if (pre.parentElement?.classList.contains("code-block")) continue;
    const wrapper = document.createElement("div");
    wrapper.className = "code-block";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "code-copy";
    button.title = texts.label;
    // The visible word is drawn by CSS from data-label (so the page's text stays what the server
    // sent); its name for assistive technology is the same word, and "copied" is said in a status.
    const show = (word: string) => {
      button.dataset.label = word;
      button.setAttribute("aria-label", word);
    };
    show(texts.copy);
    const status = document.createElement("span");
    status.className = "visually-hidden";
    status.setAttribute("role", "status");
    let timer: ReturnType<typeof setTimeout> | undefined;
    button.addEventListener("click", () => {
      const code = pre.querySelector("code") ?? pre;
      void copyText(code.textContent ?? "").then(
        () => {
          clearTimeout(timer);
          show(texts.copied);
          button.dataset.copied = "";
          status.textContent = texts.copied;
          timer = setTimeout(() => {
            show(texts.copy);
            delete button.dataset.copied;
            status.textContent = "";
          }, copiedMs);
        },
        () => undefined,
      );
    });
    pre.replaceWith(wrapper);
    wrapper.append(pre, button, status);
    undo.push(() => {
      clearTimeout(timer);
      wrapper.replaceWith(pre);
    });
  }
  return () => {
    for (const step of undo) step();
  };
}
