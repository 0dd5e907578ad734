import { createServer } from "node:http";
import { readFileSync } from "node:fs";

/** Baseline: bare node:http answering every request with the same bytes and headers as our page. */
const [port, bodyFile, headersJson] = process.argv.slice(2);
const body = readFileSync(bodyFile!);
const headers = JSON.parse(headersJson!) as Record<string, string>;
createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
}).listen(Number(port), "127.0.0.1", () => process.send?.("ready"));
