// No file-scheme assumptions: a trace on a virtual file system (an in-memory provider registered by the test)
// is checked like one on disk, and the workspace command reads files through vscode.workspace.fs.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { api, argDiagnostics, brief, closeAll, openChecked, waitFor, wsUri } from './helpers';

class MemFs implements vscode.FileSystemProvider {
  private readonly files = new Map<string, { data: Uint8Array; mtime: number }>();
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  stat(uri: vscode.Uri): vscode.FileStat {
    if (uri.path === '/') return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const f = this.files.get(uri.path);
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return { type: vscode.FileType.File, ctime: 0, mtime: f.mtime, size: f.data.length };
  }
  readDirectory(): [string, vscode.FileType][] {
    return [...this.files.keys()].map((p) => [p.slice(1), vscode.FileType.File]);
  }
  createDirectory(): void {}
  readFile(uri: vscode.Uri): Uint8Array {
    const f = this.files.get(uri.path);
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return f.data;
  }
  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    this.files.set(uri.path, { data: content, mtime: Date.now() });
    this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }
  delete(uri: vscode.Uri): void {
    this.files.delete(uri.path);
  }
  rename(): void {
    throw vscode.FileSystemError.NoPermissions('rename');
  }
}

describe('virtual file systems', () => {
  let registration: vscode.Disposable;
  before(() => {
    registration = vscode.workspace.registerFileSystemProvider('cgmem', new MemFs(), { isCaseSensitive: true });
  });
  after(() => registration.dispose());
  afterEach(closeAll);

  it('checks a trace that lives on a non-file scheme exactly like the same trace on disk', async () => {
    const cg = await api();
    const onDisk = await openChecked(cg, 'fixtures/traces/hours.calls.jsonl');
    const expected = argDiagnostics(onDisk.document.uri).map(brief);
    assert.strictEqual(expected.length, 5);

    const uri = vscode.Uri.parse('cgmem:/hours.calls.jsonl');
    await vscode.workspace.fs.writeFile(uri, await vscode.workspace.fs.readFile(wsUri('fixtures/traces/hours.calls.jsonl')));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    assert.strictEqual(doc.uri.scheme, 'cgmem');
    await waitFor('diagnostics on the virtual trace', () => argDiagnostics(uri).length === 5);
    assert.deepStrictEqual(argDiagnostics(uri).map(brief), expected);
    assert.strictEqual(cg.status(uri)?.calls, 6);
  });
});
