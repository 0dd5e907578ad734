import { EditorState } from "@codemirror/state";
import { EditorView, keymap, placeholder as placeholderText, drawSelection, highlightActiveLine } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { markdown } from "@codemirror/lang-markdown";
import { syntaxHighlighting, defaultHighlightStyle } from "@codemirror/language";

/**
 * CodeMirror 6 for Markdown. Only the write pages import this module, and only dynamically
 * (`import("../lib/codemirror.ts")`), so its weight never reaches reading pages.
 */
export interface MarkdownEditorHandle {
  /** Replaces the selection (or inserts at the cursor) with `before + selection + after`, selecting the wrapped text. */
  wrap(before: string, after: string, fallback: string): void;
  /** Inserts text at the cursor on a line of its own. */
  insertBlock(text: string): void;
  setText(text: string): void;
  focus(): void;
  destroy(): void;
}

export function createMarkdownEditor(
  parent: HTMLElement,
  options: { text: string; label: string; placeholder?: string; onChange(text: string): void },
): MarkdownEditorHandle {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: options.text,
      extensions: [
        history(),
        drawSelection(),
        highlightActiveLine(),
        markdown(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        EditorView.lineWrapping,
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        EditorView.contentAttributes.of({ "aria-label": options.label, "data-testid": "markdown-editor" }),
        ...(options.placeholder ? [placeholderText(options.placeholder)] : []),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    wrap(before, after, fallback) {
      const { from, to } = view.state.selection.main;
      const selected = view.state.sliceDoc(from, to) || fallback;
      view.dispatch({
        changes: { from, to, insert: before + selected + after },
        selection: { anchor: from + before.length, head: from + before.length + selected.length },
      });
      view.focus();
    },
    insertBlock(text) {
      const { from, to } = view.state.selection.main;
      const line = view.state.doc.lineAt(from);
      const prefix = from === line.from ? "" : "\n";
      view.dispatch({ changes: { from, to, insert: `${prefix}${text}\n` }, selection: { anchor: from + prefix.length + text.length + 1 } });
      view.focus();
    },
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}
