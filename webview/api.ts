/**
 * The webview's side of the channel to the extension host, typed by
 * src/protocol.ts. acquireVsCodeApi may be called once per page, so every
 * component posts through this module.
 */
import type { WebviewMessage } from '../src/protocol.js';

interface VsCodeApi {
  postMessage(msg: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api: VsCodeApi = acquireVsCodeApi();

export function post(msg: WebviewMessage): void {
  api.postMessage(msg);
}

