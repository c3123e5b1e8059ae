// One context per checked session (issue 16.1): the decision table, the census and freeze read a session with the
// same contracts the checks held it to (built-in packs included), and the census asks the compiled contract
// which keys are declared (patternProperties, open schemas), so a shape breaks exactly where `check` says.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkText, loadContracts } from '../../src/core';
import { buildDecisionTable, GATE_OF_CODE } from '../../src/core/report/decision-table';
import { CHECKS } from '../../src/core/checks';
import { jsonl } from './helpers';

const base = { sessionId: 's1', userType: 'external', version: '2.1.39', isSidechain: false };
const claudeCall = (uuid: string, id: string, name: string, input: object) => ({ ...base, uuid, parentUuid: null, type: 'assistant', message: { id: 'msg_' + uuid, type: 'message', role: 'assistant', content: [{ type: 'tool_use', id, name, input }], stop_reason: null } });
const claudeResult = (uuid: string, id: string, content: string) => ({ ...base, uuid, parentUuid: null, type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] } });

describe('one context per checked session', () => {
  const text = jsonl(
    { ...base, uuid: 'u0', parentUuid: null, type: 'user', message: { role: 'user', content: 'go' } },
    claudeCall('a1', 't1', 'Bash', { command: 'ls' }),
    claudeResult('r1', 't1', 'a\nb'),
    claudeCall('a2', 't2', 'Bash', { command: 'pwd', colour: 'red' }),
    claudeResult('r2', 't2', '/tmp'),
  );

  it('holds a Claude Code call to the built-in pack in the table, as check does', () => {
    const result = checkText(text, { fileName: 'session.jsonl', keepModel: true });
    assert.equal(result.format, 'claude-code');
    assert.ok(result.findings.some((f) => f.code === 'extra-key' && f.callIndex === 1), 'check reports the extra key');
    const table = buildDecisionTable(result);
    const rows = table.turns.flatMap((t) => t.rows);
    assert.equal(rows.length, 2);
    assert.equal(rows[0].gates.keys.status, 'pass');
    assert.match(rows[0].gates.keys.signal, /command is declared \(pack contract\)/);
    assert.equal(rows[1].gates.keys.status, 'fail');
    const bash = table.census.find((t) => t.tool === 'Bash');
    assert.ok(bash);
    const broken = bash.shapes.find((s) => s.keys?.includes('colour'));
    assert.deepEqual(broken?.extra, ['colour'], 'the census knows the pack declares no colour');
    assert.deepEqual(bash.shapes.find((s) => s.keys?.length === 1)?.extra, []);
  });

  it('the census asks the compiled contract: a key patternProperties allows does not break the shape', () => {
    const { contracts, findings } = loadContracts([{ path: 'c.json', text: JSON.stringify({ version: 1, tools: { get_hours: { arguments: {
      type: 'object', properties: { building: { type: 'string' } }, patternProperties: { '^x-': { type: 'string' } }, required: ['building'], additionalProperties: false,
    } } } }) }]);
    assert.equal(findings.length, 0);
    const trace = jsonl(
      { name: 'get_hours', arguments: { building: 'Killam', 'x-trace': 'abc' } },
      { name: 'get_hours', arguments: { building: 'Killam', lang: 'no' } },
    );
    const result = checkText(trace, { fileName: 'calls.jsonl', contracts, keepModel: true });
    assert.deepEqual(result.findings.filter((f) => f.code === 'extra-key').map((f) => f.callIndex), [1], 'check: only lang is extra')
    const extraOf = (keys: string[]) => buildDecisionTable(result, { contracts }).census[0].shapes.find((s) => JSON.stringify(s.keys) === JSON.stringify(keys));
    // check: x-trace is allowed, lang is not
    const flagged = new Set(result.findings.filter((f) => f.code === 'extra-key').map((f) => f.message));
    assert.ok([...flagged].some((m) => m.includes('lang')));
    assert.ok(![...flagged].some((m) => m.includes('x-trace')));
    const allowed = extraOf(['building', 'x-trace']);
    assert.ok(allowed);
    assert.deepEqual(allowed.extra, []);
    assert.equal(allowed.breaks, false);
    const breaking = extraOf(['building', 'lang']);
    assert.deepEqual(breaking?.extra, ['lang']);
    assert.equal(breaking?.breaks, true);
  });

  it('the table builds its gates from the checks: every gated code is a check with that gate', () => {
    for (const [code, gate] of Object.entries(GATE_OF_CODE)) {
      const check = CHECKS.find((c) => c.code === code);
      assert.ok(check, `${code} is a check`);
      assert.equal((check as { gate?: string }).gate, gate);
    }
    assert.equal(GATE_OF_CODE['extra-key'], 'keys');
    assert.equal(GATE_OF_CODE['stale-digest'], 'bytes');
  });
});
