// Which reader a document is read with: the one picked with "Read Trace As…" for that document (remembered for the
// session, kept when it is closed and opened again), else the `contractGuard.readAs` setting of its folder, else
// none (the content decides). checkOptions (diagnostics.ts) asks here, so the live check, the worker thread, the
// workspace check, hovers and the decision table all read a document the same way.
import * as vscode from 'vscode';
import { readerIds } from '../core';
import { readSettings } from './settings';

export const READ_AS_COMMAND = 'contractGuard.readAs';

/** What the quick pick calls "Detect automatically", also accepted as the command's argument. */
export const AUTO = 'auto';

/** Per document: a reader id, or AUTO (the content decides, whatever the setting says). */
const choices = new Map<string, string>();

/** The reader a document is read with, or undefined when its content decides. */
export function readAsFor(uri: vscode.Uri): string | undefined {
  const chosen = choices.get(uri.toString());
  if (chosen !== undefined) return chosen === AUTO ? undefined : chosen;
  const setting = readSettings(uri).readAs;
  return setting && readerIds().includes(setting) ? setting : undefined;
}

/** Where the reader of a document comes from, for the status items. */
export function readAsSource(uri: vscode.Uri): 'document' | 'setting' | undefined {
  if (choices.has(uri.toString())) return choices.get(uri.toString()) === AUTO ? undefined : 'document';
  return readAsFor(uri) !== undefined ? 'setting' : undefined;
}

interface ReaderPick extends vscode.QuickPickItem {
  id: string;
}

async function pick(uri: vscode.Uri, detected: string | undefined): Promise<string | undefined> {
  const current = readAsFor(uri);
  const setting = readSettings(uri).readAs;
  const items: ReaderPick[] = [
    {
      id: AUTO,
      label: 'Detect automatically',
      description: current === undefined ? 'current' : undefined,
      detail: setting ? `The content decides (this document only; the contractGuard.readAs setting says ${setting})` : 'The content decides which reader reads the file',
    },
    ...readerIds().map((id) => ({
      id,
      label: id,
      description: [id === current ? 'current' : '', id === detected && current === undefined ? 'detected' : ''].filter(Boolean).join(', ') || undefined,
    })),
  ];
  const chosen = await vscode.window.showQuickPick(items, {
    title: 'Contract Guard: Read Trace As…',
    placeHolder: `Read ${vscode.workspace.asRelativePath(uri)} with`,
    matchOnDescription: true,
  });
  return chosen?.id;
}

/**
 * The "Read Trace As…" command: `(uri?, id?)`. Without an id it asks with a quick pick ("Detect automatically"
 * first); `auto` or '' goes back to detection. Re-checks the document; resolves to the reader now in force.
 */
export function registerReadAs(
  context: vscode.ExtensionContext,
  recheck: (uri: vscode.Uri) => void,
  detected: (uri: vscode.Uri) => string | undefined,
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(READ_AS_COMMAND, async (target?: unknown, id?: unknown): Promise<string | undefined> => {
      const uri = target instanceof vscode.Uri ? target : vscode.window.activeTextEditor?.document.uri;
      if (!uri) {
        void vscode.window.showInformationMessage('Contract Guard: open a trace to choose how it is read.');
        return undefined;
      }
      const chosen = typeof id === 'string' ? id || AUTO : await pick(uri, detected(uri));
      if (chosen === undefined) return readAsFor(uri);
      if (chosen !== AUTO && !readerIds().includes(chosen)) {
        void vscode.window.showWarningMessage(`Contract Guard: there is no reader "${chosen}" (readers: ${readerIds().join(', ')}).`);
        return readAsFor(uri);
      }
      choices.set(uri.toString(), chosen);
      recheck(uri);
      return readAsFor(uri);
    }),
  );
}
