// The page of a webview panel (the decision table, the compare): static HTML with a fresh nonce per load and a CSP of
// default-src 'none', its script from dist/webview and its style sheets from media through asWebviewUri. The body is
// the caller's static markup: nothing from a trace is ever put in here (data travels by postMessage).
import * as vscode from 'vscode';

export interface PageParts {
  title: string;
  /** The bundle in dist/webview, e.g. `table.js`. */
  script: string;
  /** Style sheets in media, in order. */
  styles: string[];
  body: string;
}

export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, page: PageParts): string {
  const nonce = crypto.randomUUID().replace(/-/g, '');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', page.script));
  const links = page.styles.map((s) => `<link rel="stylesheet" href="${webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', s)).toString()}">`).join('\n');
  const csp = `default-src 'none'; style-src ${webview.cspSource}; script-src 'nonce-${nonce}'; img-src ${webview.cspSource}; font-src ${webview.cspSource};`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${links}
<title>${page.title}</title>
</head>
<body>
${page.body}
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}
