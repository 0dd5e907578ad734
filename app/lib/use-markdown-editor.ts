import { paywallMarker } from "../../features/paywall/split.ts";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "./i18n.tsx";
import type { MarkdownEditorHandle } from "./codemirror.ts";
import { uploadImage } from "./upload-image.ts";
import "./editor-catalog.ts";

export interface MarkdownEditorOptions {
  /** The text the form starts with (the server's, or what a failed post sent back). */
  initialText: string;
  /** The accessible name of the editing area. */
  label: string;
  csrfToken: string;
  /** Preview HTML rendered by the server before JavaScript (the "Preview" post of a plain form). */
  initialPreview?: string | null;
  /** Called on every change made by typing, a toolbar action or an upload. */
  onEdit?: () => void;
  /** The writing editor's paywall button: inserts the line where a pay-to-view writing's free part ends. */
  paywall?: boolean;
}

export type MarkdownEditor = ReturnType<typeof useMarkdownEditor>;

/**
 * State of a Markdown editing area shared by the writing and the chapter editors: the text (also
 * the value of the form's plain `<textarea>`, so the form posts it), CodeMirror loaded by dynamic
 * import once the page is hydrated (reading pages never load it), the toolbar's actions, image
 * upload, and a preview rendered by the server's pipeline 0.7 s after typing stops.
 */
export function useMarkdownEditor({
  initialText,
  label,
  csrfToken,
  initialPreview = null,
  onEdit,
  paywall = false,
}: MarkdownEditorOptions) {
  const { t } = useTranslation("editor");
  const [content, setContent] = useState(initialText);
  const [preview, setPreview] = useState<string | null>(initialPreview);
  const [uploadStatus, setUploadStatus] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const parentRef = useRef<HTMLDivElement>(null);
  const view = useRef<MarkdownEditorHandle | null>(null);
  const contentRef = useRef(content);
  contentRef.current = content;
  const onEditRef = useRef(onEdit);
  onEditRef.current = onEdit;
  const edited = useRef(false);
  const serverPreview = useRef(initialPreview !== null);

  useEffect(() => {
    let cancelled = false;
    void import("./codemirror.ts").then(({ createMarkdownEditor }) => {
      if (cancelled || !parentRef.current) return;
      view.current = createMarkdownEditor(parentRef.current, {
        text: contentRef.current,
        label,
        onChange: (text) => {
          edited.current = true;
          setContent(text);
          onEditRef.current?.();
        },
      });
      setReady(true);
    });
    return () => {
      cancelled = true;
      view.current?.destroy();
      view.current = null;
    };
    // The editor is created once; later text changes flow from it.
  }, []);

  // Live preview through the publishing pipeline, debounced. Until the writer changes the text,
  // a preview the server rendered (a plain "Preview" post) stays.
  useEffect(() => {
    if (serverPreview.current && !edited.current) return;
    if (!content.trim()) {
      setPreview(null);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetch("/api/content/preview/", {
        method: "POST",
        headers: { "content-type": "application/json", "x-csrftoken": csrfToken },
        body: JSON.stringify({ content }),
        signal: controller.signal,
        credentials: "same-origin",
      })
        .then((response) => (response.ok ? response.json() : null))
        .then((answer: { html?: string } | null) => {
          if (answer?.html !== undefined) setPreview(answer.html);
        })
        .catch(() => undefined);
    }, 700);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [content, csrfToken]);

  /** Text typed in the plain textarea (before CodeMirror is there). */
  const typed = (text: string) => {
    edited.current = true;
    setContent(text);
    onEditRef.current?.();
  };

  /** Replaces the whole text (a draft or saved version chosen by the writer). */
  const replaceText = (text: string) => {
    edited.current = true;
    setContent(text);
    view.current?.setText(text);
  };

  const insertImages = async (files: File[]) => {
    for (const file of files) {
      if (!/^image\/(png|jpeg)$/.test(file.type)) continue;
      setUploadStatus(t("editor.uploading"));
      try {
        const uploaded = await uploadImage(file, csrfToken);
        const alt = file.name.replace(/\.[a-z]+$/i, "").replace(/[[\]]/g, "");
        view.current?.insertBlock(`![${alt}](${uploaded.url})`);
        setUploadStatus(null);
      } catch (error) {
        setUploadStatus(t("editor.upload_failed", { message: (error as Error).message }));
      }
    }
  };

  const toolbar: [string, () => void][] = [
    ["bold", () => view.current?.wrap("**", "**", t("editor.bold"))],
    ["italic", () => view.current?.wrap("*", "*", t("editor.italic"))],
    ["heading", () => view.current?.insertBlock(`## ${t("editor.heading")}`)],
    ["link", () => view.current?.wrap("[", "](https://)", t("editor.link"))],
    ["quote", () => view.current?.insertBlock(`> ${t("editor.quote")}`)],
    ["list", () => view.current?.insertBlock(`- ${t("editor.list_item")}`)],
    ["code", () => view.current?.wrap("\n```\n", "\n```\n", "code")],
    ["math", () => view.current?.wrap("$", "$", "E = mc^2")],
    ...(paywall ? ([["paywall", () => view.current?.insertBlock(paywallMarker)]] as [string, () => void][]) : []),
  ];

  return { content, typed, replaceText, ready, parentRef, preview, uploadStatus, setUploadStatus, insertImages, toolbar };
}
