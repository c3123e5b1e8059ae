import * as assert from 'assert';
import * as vscode from 'vscode';

describe('harness', () => {
  it('runs inside VS Code 1.100', () => {
    assert.match(vscode.version, /^1\.100\./);
  });
});
