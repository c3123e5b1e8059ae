// Frozen fixtures in the web-worker extension host: freezing writes through vscode.workspace.fs, digests come
// from the pure SHA-256 (the same as Node's), nothing is overwritten, and the Test Explorer run replays it.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { FreezeOutcome } from '../../../src/extension/fixtures/freeze';
import type { FixtureRunSummary } from '../../../src/extension/fixtures/testing';
import { api, closeAll, openChecked, setSetting, wsUri } from '../suite/helpers';

const read = async (uri: vscode.Uri) => new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));

describe('frozen fixtures in the web extension host', () => {
  afterEach(closeAll);

  it('freezes a call through vscode.workspace.fs, never overwrites, and replays it', async () => {
    const cg = await api();
    await setSetting('contractGuard.fixturesFolder', 'frozen-web');
    try {
      const editor = await openChecked(cg, 'fixtures/traces/hours.calls.jsonl');
      const first = await vscode.commands.executeCommand<FreezeOutcome>('contractGuard.freezeCall', editor.document.uri, new vscode.Position(2, 5), { quiet: true });
      assert.strictEqual(first.status, 'written');
      const text = await read(vscode.Uri.parse(first.uri));
      const f = JSON.parse(text);
      assert.deepStrictEqual([f.tool, f.args.weekday, f.verdict.codes, f.source.line], ['get_hours', true, ['type-drift'], 3]);
      // The repo's fixture of the same call was frozen by the CLI under Node: same name, same contract digest.
      const repo = JSON.parse(await read(wsUri(`fixtures/frozen/${first.relativePath}`)));
      assert.strictEqual(f.contract, repo.contract);
      assert.match(f.source.trace, /^sha256:[0-9a-f]{64}$/);

      const again = await vscode.commands.executeCommand<FreezeOutcome>('contractGuard.freezeCall', editor.document.uri, new vscode.Position(2, 5), { quiet: true });
      assert.deepStrictEqual([again.status, again.uri], ['exists', first.uri]);
      assert.strictEqual(await read(vscode.Uri.parse(first.uri)), text);

      const summary = await vscode.commands.executeCommand<FixtureRunSummary>('contractGuard.replayFixtures');
      assert.deepStrictEqual([summary.passed, summary.failed, summary.errored], [1, 0, 0]);
    } finally {
      await setSetting('contractGuard.fixturesFolder', undefined);
      await Promise.resolve(vscode.workspace.fs.delete(wsUri('frozen-web'), { recursive: true, useTrash: false })).catch(() => undefined);
    }
  });
});
