// Built-in contract packs: every corpus trace of Claude Code, Codex, OpenHands, SWE-agent and MCP gets its calls
// checked by the pack of its agent instead of `no-contract`, and every finding left is one a person reading the
// file would call true (each with its reason). Then the rules: a pack applies only to its format, is partial,
// marks shell and editing tools mutating, loses to workspace contracts, and can be turned off.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ADAPTERS, checkText, LineIndex, loadContracts } from '../../src/core';
import { compileSchema } from '../../src/core/contracts/compile';
import { packContracts, PACKS } from '../../src/core/contracts/packs';
import { validateArguments } from '../../src/core/checks/validation';
import { emptyContracts } from '../../src/core/contracts/types';
import { checkForFreeze, freeze } from '../../src/core/fixtures/freeze';
import { replayFixture } from '../../src/core/fixtures/replay';
import { packsMarkdown } from '../../src/core/report/packs-doc';
import { CORPUS } from './helpers';

const SKIP = !existsSync(CORPUS) && 'corpus absent (../shared/corpus)';
const DIRS = ['claude-code', 'codex-cli', 'openhands', 'swe-agent', 'mcp'];

interface Expectation {
  /** Findings as `code line:column tool`, each true for a reason. */
  findings: Record<string, string>;
  /** Tools no pack describes, and why that is right. */
  unpacked?: Record<string, string>;
  /** Every call of the file is to an unpacked tool (so none is checked by the pack). */
  onlyUnpacked?: true;
}

const EXPECT: Record<string, Expectation> = {
  'claude-code/ccl-edge_cases.jsonl': {
    findings: {
      'no-contract 4:405 FailingTool': 'FailingTool is a test tool of the fixture, not a Claude Code tool: the pack is partial, so it is noted once',
      'type-drift 17:203 TodoWrite': 'todos[0] is the bare string "broken_todo" where TodoWrite takes {content, status, ...} objects: the file breaks it on purpose',
    },
    unpacked: { FailingTool: 'not a Claude Code built-in' },
  },
  'claude-code/ccl-representative_messages.jsonl': { findings: {} },
  // the Edits retried after the Read their errors asked for answer those errors: not repeats
  'claude-code/entire-5c1039ad85f4-hooks-edit-errors.jsonl': { findings: {} },
  'claude-code/entire-dc49cb8a2a42-task-subagents.jsonl': { findings: {} },
  'claude-code/ccl-todowrite_examples.jsonl': { findings: {} },
  'claude-code/cct-sample_session.json': { findings: {} },
  'claude-code/cct-sample_session.jsonl': { findings: {} },
  'codex-cli/ccl-rollout-11111111.jsonl': {
    findings: { 'no-contract 10:105 mcp__synthetic__lookup': 'an MCP tool of a synthetic server the rollout connected: no pack can know it' },
    unpacked: { mcp__synthetic__lookup: 'a user-configured MCP server' },
  },
  'codex-cli/localpush-rollout-019c8a4c-redacted.excerpt-l1-186.jsonl': { findings: {} },
  'codex-cli/localpush-rollout-019c8bfe-mcp-redacted.jsonl': {
    findings: {
      'no-contract 17:105 mcp__cloud-associates__search_workflows': 'a tool of the user\'s own MCP server: no pack can know it',
      'no-contract 26:105 [REDACTED_NAME len=43 sha=c186413b]': 'the sanitizer replaced this MCP tool\'s name with a placeholder',
      'no-contract 35:105 mcp__cloud-associates__execute_workflow': 'the same user MCP server',
    },
    unpacked: {
      'mcp__cloud-associates__search_workflows': 'user MCP server',
      '[REDACTED_NAME len=43 sha=c186413b]': 'redacted name',
      'mcp__cloud-associates__execute_workflow': 'user MCP server',
    },
    onlyUnpacked: true,
  },
  'openhands/basic.json': {
    findings: { 'orphan-call 170:29 finish': 'finish is the last event and OpenHands records no observation for it (info: the trace ends there)' },
  },
  'openhands/basic_interactions.json': { findings: {} },
  'swe-agent/function_calling_simple.traj': { findings: {} },
  'swe-agent/pydicom-1458_textaction.traj': {
    findings: {
      'duplicate-fingerprint 194:17 edit': 'the same 287:295 edit is sent again after the linter rejected it: the stuck retry the seeds warn about',
      'orphan-call 242:17 submit': 'submit ends the run with no observation after it (info)',
    },
  },
  'swe-agent/sweagenttestrepo-1c2844.traj': { findings: {} },
  'mcp/explore-mcp-filesystem-session_20251023_230251.jsonl': { findings: {} },
};

function corpusFiles(): string[] {
  return DIRS.flatMap((d) => (existsSync(path.join(CORPUS, d)) ? readdirSync(path.join(CORPUS, d)).map((f) => `${d}/${f}`) : [])).sort();
}

describe('packs on the corpus: every call checked by its agent\'s pack', { skip: SKIP }, () => {
  it('every corpus file of these agents has an expectation', () => {
    assert.deepEqual(corpusFiles(), Object.keys(EXPECT).sort());
  });

  for (const [rel, e] of Object.entries(EXPECT)) {
    it(rel, () => {
      const text = readFileSync(path.join(CORPUS, rel), 'utf8');
      const r = checkText(text, { fileName: rel, keepModel: true });
      const index = LineIndex.of(text);
      const got = r.findings.map((f) => {
        const p = index.position(f.span.start);
        return `${f.code} ${p.line}:${p.column} ${f.tool}`;
      });
      assert.deepEqual(got, Object.keys(e.findings));
      // Every call has a contract from the pack of its format (or, for MCP, the tools/list it recorded, which
      // the pack's own schemas must accept as well), except the tools listed as unpacked.
      const adapter = ADAPTERS.find((a) => a.id === r.format)!;
      const packs = packContracts(adapter.packs)!;
      assert.ok(packs, `${r.format} names packs`);
      const expectedFor = (code: string, tool: string) => Object.keys(e.findings).some((k) => k.startsWith(code + ' ') && k.endsWith(' ' + tool));
      let checked = 0;
      for (const { session } of r.model ?? []) {
        for (const call of session.calls) {
          if (e.unpacked?.[call.name]) continue;
          const contract = packs.tools.get(call.name) ?? (call.encoding === 'freeform' ? packs.command : undefined);
          assert.ok(contract, `${call.name} (${call.encoding}) has a pack contract`);
          if (contract.arguments !== undefined && call.encoding !== 'freeform') {
            assert.deepEqual(validateArguments(contract.arguments, call.args, 'strict', undefined, []).map((f) => f.code).filter((c) => !expectedFor(c, call.name)), [], `${call.name} passes its pack schema`);
          }
          checked++;
        }
      }
      assert.ok(e.onlyUnpacked ? checked === 0 : checked > 0, 'calls checked by the pack');
      assert.ok(!r.findings.some((f) => f.code === 'no-contract' && !e.unpacked?.[f.tool!]), 'no-contract only for unpacked tools');
    });
  }
});

describe('packs: the rules', () => {
  const claudeLine = (name: string, input: unknown, id = 'toolu_1') =>
    JSON.stringify({ type: 'assistant', sessionId: 's1', uuid: `u-${id}`, message: { id: `msg-${id}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] } });

  it('every pack schema compiles in both profiles, and every pack records what it describes', () => {
    for (const pack of PACKS) {
      assert.ok(pack.describes.project && pack.describes.version && pack.describes.source, pack.id);
      for (const [name, t] of Object.entries(pack.tools)) {
        for (const profile of ['strict', 'json-schema'] as const) assert.equal(compileSchema(t.arguments, profile).error, undefined, `${pack.id}/${name}`);
      }
    }
  });

  it('contract-guard packs documents every pack with its version, the formats it applies to, and its tools', () => {
    const md = packsMarkdown();
    for (const pack of PACKS) {
      assert.ok(md.includes(`| \`${pack.id}\` |`) && md.includes(`| ${pack.describes.version} |`), pack.id);
      for (const name of Object.keys(pack.tools)) assert.ok(md.includes(`\`${name}\``), `${pack.id}/${name}`);
    }
    assert.match(md, /\| `claude-code` \| `claude-code` \|/);
    assert.match(md, /\| `mcp-git` \| `mcp` \|/);
  });

  it('a Claude Code log gets the Claude Code pack: drift is flagged at the value, unlisted tools are no-contract', () => {
    const text = [claudeLine('Read', { file_path: '/a.py', offset: '10' }), claudeLine('Bash', { cmd: 'ls' }, 'toolu_2'), claudeLine('Frobnicate', {}, 'toolu_3')].join('\n') + '\n';
    const r = checkText(text, { fileName: 'session.jsonl' });
    assert.equal(r.format, 'claude-code');
    const codes = r.findings.map((f) => `${f.code}:${f.tool}`);
    assert.deepEqual(codes, ['type-drift:Read', 'missing-key:Bash', 'extra-key:Bash', 'no-contract:Frobnicate']);
    const drift = r.findings[0];
    assert.equal(text.slice(drift.span.start, drift.span.end), '"10"');
  });

  it('packs are off with packs: false, and limited to the listed ids', () => {
    const text = claudeLine('Read', { file_path: '/a.py', offset: '10' }) + '\n';
    assert.deepEqual(checkText(text, { fileName: 's.jsonl', packs: false }).findings.map((f) => f.code), ['no-contract']);
    assert.deepEqual(checkText(text, { fileName: 's.jsonl', packs: ['codex'] }).findings.map((f) => f.code), ['no-contract']);
    assert.deepEqual(checkText(text, { fileName: 's.jsonl', packs: ['claude-code'] }).findings.map((f) => f.code), ['type-drift']);
  });

  it('a pack applies only to its agent\'s format: Bash in a plain calls trace stays uncontracted', () => {
    const r = checkText(JSON.stringify({ name: 'Bash', arguments: { cmd: 'ls' } }) + '\n', { fileName: 'x.jsonl' });
    assert.equal(r.format, 'calls');
    assert.deepEqual(r.findings.map((f) => f.code), ['no-contract']);
  });

  it('workspace contracts win over the pack, tool by tool', () => {
    const { contracts } = loadContracts([{ path: 'bash.contract.json', text: JSON.stringify({ partial: true, tools: { Bash: { arguments: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] } } } }) }]);
    const text = [claudeLine('Bash', { cmd: 'ls' }), claudeLine('Read', { file_path: 3 }, 'toolu_2')].join('\n') + '\n';
    const r = checkText(text, { fileName: 's.jsonl', contracts });
    assert.deepEqual(r.findings.map((f) => `${f.code}:${f.tool}`), ['type-drift:Read']);
  });

  it('Claude Code names MCP tools mcp__<server>__<tool>: the reference servers\' packs apply under their usual names', () => {
    const text = [claudeLine('mcp__filesystem__read_file', { path: 3 }, 't1'), claudeLine('mcp__filesystem__write_file', { path: '/a', content: 'x' }, 't2'), claudeLine('mcp__notes__read_file', { path: 3 }, 't3')].join('\n') + '\n';
    assert.deepEqual(checkText(text, { fileName: 's.jsonl' }).findings.map((f) => `${f.code}:${f.tool}`), ['type-drift:mcp__filesystem__read_file', 'no-contract:mcp__notes__read_file']);
    assert.deepEqual(checkText(text, { fileName: 's.jsonl', packs: ['claude-code'] }).findings.map((f) => `${f.code}:${f.tool}`), ['no-contract:mcp__filesystem__read_file', 'no-contract:mcp__filesystem__write_file', 'no-contract:mcp__notes__read_file']);
  });

  it('a frozen fixture of a pack-checked call records the packs, and replays to the same verdict', () => {
    const text = claudeLine('Read', { file_path: '/a.py', limit: '20' }) + '\n';
    const trace = checkForFreeze(text, { fileName: 'session.jsonl', contracts: emptyContracts() });
    const frozen = freeze(trace, trace.sites[0]);
    assert.deepEqual(frozen.fixture.packs, ['claude-code']);
    assert.deepEqual(frozen.fixture.verdict.codes, ['type-drift']);
    assert.notEqual(frozen.fixture.contract, null, 'the digest is of the pack contract');
    const replayed = replayFixture('Read.fixture.json', frozen.text, { contracts: emptyContracts() });
    assert.equal(replayed.status, 'no-drift', replayed.detail);
    assert.equal(replayed.contractChanged, false);
  });

  it('shell and editing tools are mutating: a repeated read after an Edit is not a duplicate', () => {
    const read = { file_path: '/a.py' };
    const lines = [
      claudeLine('Read', read, 't1'),
      claudeLine('Edit', { file_path: '/a.py', old_string: 'a', new_string: 'b' }, 't2'),
      claudeLine('Read', read, 't3'),
      claudeLine('Read', read, 't4'),
    ];
    const r = checkText(lines.join('\n') + '\n', { fileName: 's.jsonl' });
    const dups = r.findings.filter((f) => f.code === 'duplicate-fingerprint');
    assert.equal(dups.length, 1, 'only the read right after a read repeats');
    assert.equal(dups[0].callId, 't4');
  });
});
