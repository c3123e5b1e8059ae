import * as assert from 'assert';
import * as vscode from 'vscode';

describe('harness', () => {
  it('runs inside VS Code 1.100', () => {
    assert.match(vscode.version, /^1\.100\./);
  });
});

describe('harness settings', () => {
  it('the user settings the harness writes are in effect', () => {
    assert.strictEqual(vscode.workspace.getConfiguration('git').get('enabled'), false);
    assert.strictEqual(vscode.workspace.getConfiguration('workbench').get('startupEditor'), 'none');
  });
});
