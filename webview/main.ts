/**
 * The state panel's webview entry (bundled by scripts/build.mjs into
 * dist/webview.js): registers the elements and tells the host it can render.
 */
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import '@vscode-elements/elements/dist/vscode-icon/index.js';
import '@vscode-elements/elements/dist/vscode-tree/index.js';
import '@vscode-elements/elements/dist/vscode-tree-item/index.js';
import { post } from './api.js';
import './panel.js';

post({ type: 'ready' });
