// Files the extension writes, through vscode.workspace.fs (virtual workspaces work): new files only, written
// atomically (a temporary file in the same folder, renamed without overwrite), so nothing is ever replaced.
import * as vscode from 'vscode';

export async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** Write a new file: a temp file in the same folder, renamed without overwrite. Never replaces an existing file. */
export async function writeNew(target: vscode.Uri, text: string): Promise<'written' | 'exists'> {
  if (await exists(target)) return 'exists';
  const dir = vscode.Uri.joinPath(target, '..');
  await vscode.workspace.fs.createDirectory(dir);
  const name = target.path.slice(target.path.lastIndexOf('/') + 1);
  const tmp = vscode.Uri.joinPath(dir, `.${name}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`);
  await vscode.workspace.fs.writeFile(tmp, new TextEncoder().encode(text));
  try {
    await vscode.workspace.fs.rename(tmp, target, { overwrite: false });
    return 'written';
  } catch (e) {
    await Promise.resolve(vscode.workspace.fs.delete(tmp)).catch(() => undefined);
    if (e instanceof vscode.FileSystemError && e.code === 'FileExists') return 'exists';
    if (await exists(target)) return 'exists';
    throw e;
  }
}
