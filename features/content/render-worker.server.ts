import type { MessagePort } from "node:worker_threads";
import { prepareRenderer, renderInThisThread, type PipelineOptions } from "./pipeline.server.ts";

/**
 * Entry point of the rendering worker threads (see render.server.ts). Once the pipeline is loaded
 * (the first task of a worker loads Shiki and the grammars), it tells the caller the render has
 * started, so the caller's time limit measures the render alone.
 */
export default async function renderTask(task: { markdown: string; options: PipelineOptions; started: MessagePort }) {
  await prepareRenderer(task.options.locale);
  task.started.postMessage("started");
  task.started.close();
  return renderInThisThread(task.markdown, task.options);
}
