import { renderInThisThread, type PipelineOptions } from "./pipeline.server.ts";

/** Entry point of the rendering worker threads (see render.server.ts). */
export default function renderTask(task: { markdown: string; options: PipelineOptions }) {
  return renderInThisThread(task.markdown, task.options);
}
