// A CodeLens whose command is made only when VS Code resolves it, i.e. when it is about to be shown. A trace gets up
// to 2000 lenses of each kind; building and sending every command at once held the extension host for 100+ ms.
import * as vscode from 'vscode';

export class LazyLens extends vscode.CodeLens {
  constructor(range: vscode.Range, private readonly make: () => vscode.Command) {
    super(range);
  }

  resolve(): this {
    this.command ??= this.make();
    return this;
  }
}

/** For a provider's resolveCodeLens. */
export function resolveLens(lens: vscode.CodeLens): vscode.CodeLens {
  return lens instanceof LazyLens ? lens.resolve() : lens;
}
