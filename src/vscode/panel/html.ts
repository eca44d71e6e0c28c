/**
 * The panel's HTML shell: two nonce'd scripts (elkjs, then the lit bundle), no inline
 * handlers or styles, `default-src 'none'`. Styles come from lit's
 * constructable stylesheets, which a style-src nonce does not need to cover.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export function panelHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(18).toString('base64url');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js'));
  // elkjs, which lays the diagram out: a script of its own (window.ELK), the same file the extension host's SVG export loads.
  const elk = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'elk.js'));
  const codicons = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'codicon.css'));
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource} 'nonce-${nonce}'`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<!-- The id is how @vscode-elements' icons find the codicon font to adopt into their shadow roots. -->
<link id="vscode-codicon-stylesheet" rel="stylesheet" nonce="${nonce}" href="${codicons.toString()}">
<title>stategate</title>
</head>
<body>
<sg-panel data-testid="panel-root"></sg-panel>
<script nonce="${nonce}" src="${elk.toString()}"></script>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}

/** Webview options shared by the view and the editor panel: scripts, and only dist/ and media/ readable. */
export function panelOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}
