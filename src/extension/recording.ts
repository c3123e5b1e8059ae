// "Contract Guard: Start Recording Proxy…" (contractGuard.startRecording): the `contract-guard record` proxy
// (src/cli/live/proxy.ts) run in the extension host, so an agent pointed at it is checked as it runs: it asks for
// the upstream, records to `traces/recorded-<date and time>.jsonl` of the workspace (the extension's storage when
// the workspace is not on disk) and opens that file, whose squiggles follow it as it grows (the editor re-checks
// the appended lines). A status bar item shows it while it runs; a click stops it (contractGuard.stopRecording).
// Its log and the findings it prints go to the "Contract Guard Recording" output. Only in the Node extension host:
// the web host has no sockets to listen on, and says so.
import * as vscode from 'vscode';

type ProxyModule = typeof import('../cli/live/proxy');
type JsonlModule = typeof import('../cli/live/jsonl');

/** The proxy's modules, or undefined in the web bundle (which must not pull Node's http in). */
function liveModules(): { proxy: ProxyModule; jsonl: JsonlModule } | undefined {
  // a branch the web build's define makes dead, so esbuild leaves these requires (and node:http) out of it
  if (process.env.CONTRACT_GUARD_TARGET !== 'web') {
    /* eslint-disable @typescript-eslint/no-require-imports */
    return { proxy: require('../cli/live/proxy') as ProxyModule, jsonl: require('../cli/live/jsonl') as JsonlModule };
    /* eslint-enable @typescript-eslint/no-require-imports */
  }
  return undefined;
}

export interface RecordingArgs {
  /** Skip the input box (tests, keybindings with args). */
  upstream?: string;
  port?: number;
}

export interface RecordingInfo {
  url: string;
  file: vscode.Uri;
}

const LAST_UPSTREAM = 'contractGuard.recording.upstream';

export function registerRecording(context: vscode.ExtensionContext): void {
  let running: { proxy: Awaited<ReturnType<ProxyModule['startRecordingProxy']>>; info: RecordingInfo } | undefined;
  let output: vscode.OutputChannel | undefined;
  const item = vscode.window.createStatusBarItem('contractGuard.recording', vscode.StatusBarAlignment.Left, 90);
  item.name = 'Contract Guard Recording';
  item.command = 'contractGuard.stopRecording';

  const stop = async (): Promise<boolean> => {
    const r = running;
    if (!r) return false;
    running = undefined;
    item.hide();
    await r.proxy.close();
    output?.appendLine(`stopped (${r.proxy.exchanges} exchange${r.proxy.exchanges === 1 ? '' : 's'} recorded to ${r.info.file.fsPath})`);
    return true;
  };

  const start = async (args?: RecordingArgs): Promise<RecordingInfo | undefined> => {
    const live = liveModules();
    if (!live) {
      void vscode.window.showInformationMessage('Contract Guard: the recording proxy is not available in VS Code for the Web (it needs the desktop extension host to listen on 127.0.0.1). Run `contract-guard record` in a terminal instead.');
      return undefined;
    }
    if (running) {
      void vscode.window.showInformationMessage(`Contract Guard: the recording proxy already runs on ${running.info.url} (click its status bar item to stop it).`);
      return running.info;
    }
    const upstream = args?.upstream ?? (await vscode.window.showInputBox({
      title: 'Contract Guard: Start Recording Proxy',
      prompt: 'The model API to forward to (its origin); clients then use the proxy as their base URL',
      value: context.globalState.get<string>(LAST_UPSTREAM) ?? 'https://api.openai.com',
      validateInput: (v) => {
        const u = live.proxy.parseUpstream(v.trim());
        return typeof u === 'string' ? u : undefined;
      },
    }));
    if (upstream === undefined) return undefined;
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
    const root = folder ? folder.uri : context.globalStorageUri;
    const file = vscode.Uri.joinPath(root, ...live.jsonl.defaultOutFile('recorded').split(/[\\/]/)).fsPath;
    output ??= vscode.window.createOutputChannel('Contract Guard Recording');
    const log = output;
    try {
      const proxy = await live.proxy.startRecordingProxy({
        upstream: upstream.trim(),
        port: args?.port ?? 0,
        out: file,
        shownAs: folder ? vscode.workspace.asRelativePath(file) : file,
        onFinding: (line) => log.appendLine(line),
        log: (line) => log.appendLine(line),
      });
      running = { proxy, info: { url: proxy.url, file: vscode.Uri.file(file) } };
    } catch (e) {
      void vscode.window.showErrorMessage(`Contract Guard: the recording proxy did not start: ${(e as Error).message}`);
      return undefined;
    }
    await context.globalState.update(LAST_UPSTREAM, upstream.trim());
    const { url } = running.info;
    log.appendLine(`listening on ${url}/ (recording ${upstream.trim()} to ${file}; base URL ${url}/v1 for OpenAI clients, ${url} for Anthropic)`);
    item.text = `$(record) Recording ${url.replace(/^http:\/\//, '')}`;
    item.tooltip = `Contract Guard is recording ${upstream.trim()} to ${vscode.workspace.asRelativePath(file)}.\nBase URL: ${url}/v1 (OpenAI clients), ${url} (Anthropic).\nClick to stop.`;
    item.show();
    await vscode.window.showTextDocument(running.info.file, { preview: false });
    void vscode.window.showInformationMessage(`Contract Guard: recording proxy on ${url} — point your client's base URL at ${url}/v1 (OpenAI) or ${url} (Anthropic).`, 'Copy Base URL').then((pick) => {
      if (pick) void vscode.env.clipboard.writeText(`${url}/v1`);
    });
    return running.info;
  };

  context.subscriptions.push(
    item,
    vscode.commands.registerCommand('contractGuard.startRecording', (args?: RecordingArgs) => start(args)),
    vscode.commands.registerCommand('contractGuard.stopRecording', () => stop()),
    { dispose: () => void stop().then(() => output?.dispose()) },
  );
}
