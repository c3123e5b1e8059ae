// "Contract Guard: Create Contract from This Trace" (contractGuard.createContract): a starter contract inferred
// from the calls of the trace in the editor (src/core/contracts/infer.ts), written next to the trace as
// `<name>.contract.json` (or `<name>-2.contract.json`, ...: an existing file is never overwritten) and opened
// for review. Works on unsaved text and in virtual workspaces (vscode.workspace.fs).
import * as vscode from 'vscode';
import { checkText, inferContract, renderContract } from '../core';
import { writeNew } from './files';

/** Write `text` to the first free `<stem>.contract.json`, `<stem>-2.contract.json`, ... beside the trace. */
async function writeBeside(trace: vscode.Uri, text: string): Promise<vscode.Uri> {
  const base = trace.path.slice(trace.path.lastIndexOf('/') + 1);
  const stem = base.replace(/\.gz$/i, '').replace(/\.(jsonl|ndjson|jsonlines|json|traj)$/i, '').replace(/\.trace$/i, '') || 'trace';
  const dir = vscode.Uri.joinPath(trace, '..');
  for (let n = 1; ; n++) {
    const uri = vscode.Uri.joinPath(dir, `${stem}${n === 1 ? '' : `-${n}`}.contract.json`);
    if ((await writeNew(uri, text)) === 'written') return uri;
  }
}

/** Infer and write the contract for a trace document; returns where it was written (undefined: no calls). */
export async function createContract(document: vscode.TextDocument): Promise<vscode.Uri | undefined> {
  const result = checkText(document.getText(), { fileName: document.fileName, keepModel: true, packs: false });
  const calls = (result.model ?? []).flatMap((m) => m.session.calls);
  if (!calls.length) {
    void vscode.window.showInformationMessage('Contract Guard: this file holds no tool calls to infer a contract from.');
    return undefined;
  }
  const inferred = inferContract(calls, vscode.workspace.asRelativePath(document.uri));
  const text = renderContract(inferred.value);
  if (document.uri.scheme === 'untitled') {
    const doc = await vscode.workspace.openTextDocument({ language: 'json', content: text });
    await vscode.window.showTextDocument(doc);
    return doc.uri;
  }
  const target = await writeBeside(document.uri, text);
  await vscode.window.showTextDocument(target);
  const tools = Object.keys(inferred.value.tools).length;
  void vscode.window.showInformationMessage(`Contract Guard: inferred ${tools} tool${tools === 1 ? '' : 's'} from ${calls.length - inferred.skipped} calls into ${vscode.workspace.asRelativePath(target)}; review it before relying on it.`);
  return target;
}

/** Register the command (the one function extension.ts calls). */
export function registerInfer(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('contractGuard.createContract', async (uri?: vscode.Uri) => {
      const document = uri instanceof vscode.Uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
      if (!document) {
        void vscode.window.showInformationMessage('Contract Guard: open a trace to create a contract from it.');
        return undefined;
      }
      return createContract(document);
    }),
  );
}
