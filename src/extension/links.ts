// Links to one call: "Copy Link to Call" puts `<scheme>://<publisher>.<name>/open?file=<path>&call=<session>:<index>`
// on the clipboard (the path relative to the workspace folder, so the link works in another checkout: CI reports,
// chat messages), and the URI handler opens the trace at that call. The call is named by its place in the model
// (session and index), which survives edits elsewhere in the file better than a line number.
import * as vscode from 'vscode';
import { markAt, type CallMark } from '../core';
import { marksOf } from './callMarks';
import { currentState, type LiveSymbols } from './symbols';
import { revealInTrace } from './tracesView';

export const COPY_LINK_COMMAND = 'contractGuard.copyLinkToCall';

export interface CallRef {
  session: number;
  index: number;
}

/** `0:12` → the call; anything else → undefined. */
export function parseCallRef(text: string | null | undefined): CallRef | undefined {
  const m = /^(\d+):(\d+)$/.exec(text ?? '');
  return m ? { session: Number(m[1]), index: Number(m[2]) } : undefined;
}

export function linkToCall(extensionId: string, uri: vscode.Uri, call: CallRef): string {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  const file = folder ? vscode.workspace.asRelativePath(uri, false) : uri.toString();
  return `${vscode.env.uriScheme}://${extensionId}/open?file=${encodeURIComponent(file)}&call=${call.session}:${call.index}`;
}

/** The trace a link's `file` names: a workspace-relative path (tried in each folder) or a whole URI. */
async function resolveFile(file: string): Promise<vscode.Uri | undefined> {
  if (/^[a-z][a-z0-9+.-]+:/i.test(file) && !/^[a-z]:[\\/]/i.test(file)) return vscode.Uri.parse(file);
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const uri = vscode.Uri.joinPath(folder.uri, ...file.split(/[\\/]/).filter(Boolean));
    try {
      await vscode.workspace.fs.stat(uri);
      return uri;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** Open the trace a link names at its call. Returns why not, as one line, when it cannot. */
export async function openLink(live: LiveSymbols, link: vscode.Uri, ready?: Promise<unknown>): Promise<string | undefined> {
  if (link.path !== '/open') return `Contract Guard: unknown link ${link.path}.`;
  const params = new URLSearchParams(link.query);
  const file = params.get('file');
  const call = parseCallRef(params.get('call'));
  if (!file) return 'Contract Guard: the link names no file.';
  const uri = await resolveFile(file);
  if (!uri) return `Contract Guard: ${file} is not in this workspace.`;
  let doc: vscode.TextDocument;
  try {
    doc = await vscode.workspace.openTextDocument(uri);
  } catch (e) {
    return `Contract Guard: cannot open ${file}: ${(e as Error).message}`;
  }
  await vscode.window.showTextDocument(doc, { preview: false });
  if (!call) return params.has('call') ? `Contract Guard: "${params.get('call')}" is not a call (session:index).` : undefined;
  const state = await currentState(live, doc, undefined, ready);
  const mark = state && marksOf(state.result, state.marks).find((m) => m.session === call.session && m.index === call.index);
  if (!mark) return `Contract Guard: ${file} has no call ${call.session}:${call.index}${state ? '' : ' (it was not read as a trace)'}.`;
  await revealInTrace(uri, mark.offset, mark.end);
  return undefined;
}

/** The call under the cursor of an editor, from its last check. */
export async function callAtCursor(live: LiveSymbols, editor: vscode.TextEditor, ready?: Promise<unknown>): Promise<CallMark | undefined> {
  const state = await currentState(live, editor.document, undefined, ready);
  return state && markAt(marksOf(state.result, state.marks), editor.document.offsetAt(editor.selection.active));
}

/** Registers the URI handler and the command; returns what the handler does with a link (for the suite). */
export function registerLinks(context: vscode.ExtensionContext, live: LiveSymbols, ready: Promise<unknown>): (link: vscode.Uri) => Promise<string | undefined> {
  const id = context.extension.id;
  context.subscriptions.push(
    vscode.window.registerUriHandler({
      handleUri: async (uri) => {
        const why = await openLink(live, uri, ready);
        if (why) void vscode.window.showWarningMessage(why);
      },
    }),
    // (uri, {session, index}) from a lens or another command; nothing: the call under the cursor
    vscode.commands.registerCommand(COPY_LINK_COMMAND, async (target?: unknown, ref?: unknown): Promise<string | undefined> => {
      let uri = target instanceof vscode.Uri ? target : undefined;
      let call = isCallRef(ref) ? ref : undefined;
      if (!call) {
        const editor = vscode.window.activeTextEditor;
        if (!editor || (uri && editor.document.uri.toString() !== uri.toString())) {
          void vscode.window.showWarningMessage('Contract Guard: put the cursor on a call of a trace to copy a link to it.');
          return undefined;
        }
        uri = editor.document.uri;
        const mark = await callAtCursor(live, editor, ready);
        if (!mark) {
          void vscode.window.showWarningMessage('Contract Guard: the cursor is not on a tool call.');
          return undefined;
        }
        call = mark;
      }
      if (!uri) return undefined;
      const link = linkToCall(id, uri, call);
      await vscode.env.clipboard.writeText(link);
      vscode.window.setStatusBarMessage(`$(link) Link to call ${call.session}:${call.index} copied`, 4000);
      return link;
    }),
  );
  return (link) => openLink(live, link, ready);
}

function isCallRef(v: unknown): v is CallRef {
  return typeof v === 'object' && v !== null && typeof (v as CallRef).session === 'number' && typeof (v as CallRef).index === 'number';
}
