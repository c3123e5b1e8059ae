// The README's GitHub Actions workflow: its `run:` commands, taken verbatim from the README, run here in a copy of
// fixtures/ (traces/, contracts/, frozen/) with `npx contract-guard` resolving to the built CLI — so the documented
// workflow is the one that works.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ROOT } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  with: Record<string, string>;
  always: boolean;
}

/** The steps of the README's workflow block (the one that uploads SARIF): one-line `run:`s, `uses:`, `with:`. */
function workflowSteps(readme: string): Step[] {
  const block = /```yaml\n([\s\S]*?upload-sarif[\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(block, 'the README has a yaml block with the upload-sarif step');
  const steps: Step[] = [];
  let inWith = false;
  for (const line of block.split('\n')) {
    const item = /^ {6}- (\w+):\s*(.*)$/.exec(line);
    const field = /^ {8}(\w[\w-]*):\s*(.*)$/.exec(line);
    const withField = /^ {10}(\w[\w-]*):\s*(.*)$/.exec(line);
    if (item) {
      steps.push({ with: {}, always: false });
      inWith = false;
    }
    const step = steps[steps.length - 1];
    const [key, value] = item ? [item[1], item[2]] : field ? [field[1], field[2]] : [undefined, undefined];
    if (key === 'name') step.name = value;
    else if (key === 'run') step.run = value;
    else if (key === 'uses') step.uses = value;
    else if (key === 'if') step.always = value === 'always()';
    else if (key === 'with') inWith = true;
    else if (withField && inWith && step) step.with[withField[1]] = withField[2];
  }
  return steps;
}

describe('README GitHub Actions workflow', () => {
  before(() => assert.ok(existsSync(CLI), 'dist/cli.js is built by `npm run build`'));

  it('its commands run on fixtures/: check gates, SARIF is written for the upload, the summary is markdown', () => {
    const steps = workflowSteps(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
    const upload = steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'));
    assert.ok(upload, 'a SARIF upload step');
    assert.ok(upload.always, 'the upload runs even when the check step failed the job');
    const commands = steps.filter((s) => s.run && s.run.startsWith('npx contract-guard '));
    assert.equal(commands.length, 3, steps.map((s) => s.run ?? s.uses).join('\n'));

    const work = mkdtempSync(path.join(tmpdir(), 'cg-workflow-'));
    cpSync(path.join(ROOT, 'fixtures'), work, { recursive: true });
    // `npx contract-guard …` as in CI, where npm ci installed the package: the shim hands over to the built CLI
    const bin = mkdtempSync(path.join(tmpdir(), 'cg-bin-'));
    writeFileSync(path.join(bin, 'npx'), `#!/bin/sh\n[ "$1" = contract-guard ] || exit 127\nshift\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    chmodSync(path.join(bin, 'npx'), 0o755);
    const summary = path.join(work, 'step-summary.md');
    writeFileSync(summary, '');
    const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}`, GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: work };
    const codes = commands.map((s) => spawnSync('bash', ['-e', '-c', s.run!], { cwd: work, env, encoding: 'utf8' }));
    for (const r of codes) assert.equal(r.stderr, '');

    // the check step fails the job: the fixtures hold the seeds' drift on purpose
    assert.equal(codes[0].status, 1);
    const sarifFile = path.join(work, upload.with.sarif_file);
    const sarif = JSON.parse(readFileSync(sarifFile, 'utf8'));
    assert.equal(sarif.version, '2.1.0');
    assert.ok(sarif.runs[0].results.some((r: { ruleId: string }) => r.ruleId === 'type-drift'));
    assert.ok(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri.startsWith('traces/'));

    // the summary steps never fail the job, and append markdown with links into the repository
    assert.deepEqual(codes.slice(1).map((r) => r.status), [0, 0]);
    assert.ok(commands.slice(1).every((s) => s.always && s.run!.endsWith('>> "$GITHUB_STEP_SUMMARY"')));
    const md = readFileSync(summary, 'utf8');
    assert.match(md, /^### Contract Guard: check$/m);
    assert.match(md, /^### Contract Guard: mock coverage$/m);
    assert.match(md, /\| \[traces\/hours\.anthropic\.json:\d+\]\(traces\/hours\.anthropic\.json#L\d+\) \| error \| `type-drift` \|/);
    assert.match(md, /^coverage: 0 of \d+ shapes/m);
  });
});
