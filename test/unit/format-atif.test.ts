// Harbor ATIF trajectories: tool calls per agent step, results by source_call_id or by place in the step, embedded
// tool definitions, and what is not a result (a parser's complaint in a step without calls).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADAPTERS } from '../../src/core';
import { readTrace } from './helpers';

function read(value: unknown) {
  const { r, sessions } = readTrace(JSON.stringify(value, null, 2), { fileName: 'trajectory.json', packs: false });
  return { r, s: sessions[0] };
}

const trajectory = {
  schema_version: 'ATIF-v1.5',
  session_id: 'run-1',
  agent: {
    name: 'terminus-2', version: '2.0.0',
    tool_definitions: [{ type: 'function', function: { name: 'bash_command', parameters: { type: 'object', properties: { keystrokes: { type: 'string' }, duration: { type: 'number' } }, required: ['keystrokes'] } } }],
  },
  steps: [
    { step_id: 1, source: 'user', message: 'make hello.txt' },
    { step_id: 2, source: 'agent', message: 'bad json', observation: { results: [{ content: 'Previous response had parsing errors' }] } },
    { step_id: 3, source: 'agent', message: 'two commands', tool_calls: [
      { tool_call_id: 'call_1', function_name: 'bash_command', arguments: { keystrokes: 'ls\n', duration: 0.1 } },
      { tool_call_id: 'call_2', function_name: 'bash_command', arguments: { keystrokes: 'cat x\n', lang: 'sh' } },
    ], observation: { results: [{ content: 'a b' }, { content: 'cat: x: No such file', extra: { is_error: true, exit_code: 1 } }] } },
    { step_id: 4, source: 'agent', message: 'done', tool_calls: [{ tool_call_id: 'call_3', function_name: 'mark_task_complete', arguments: {} }],
      observation: { results: [{ source_call_id: 'call_3', content: 'ok' }, { source_call_id: 'call_9', content: 'stray' }] } },
  ],
};

describe('atif', () => {
  it('reads calls per step, pairs results by id or by place, and checks them against the embedded definitions', () => {
    const { r, s } = read(trajectory);
    assert.equal(r.format, 'atif');
    assert.equal(s.id, 'run-1');
    assert.deepEqual(s.tools.map((t) => t.name), ['bash_command']);
    assert.deepEqual(s.calls.map((c) => [c.name, c.turn, c.messageText]), [['bash_command', 1, 'two commands'], ['bash_command', 1, 'two commands'], ['mark_task_complete', 2, 'done']]);
    assert.deepEqual(s.results.map((x) => [x.callId ?? x.callIndex, x.transport]), [[0, {}], [1, { isError: true, exitCode: 1 }], ['call_3', {}], ['call_9', {}]],
      'the parser complaint of step 2 answers no call and is not read');
    const codes = r.findings.map((f) => `${f.code} ${f.tool ?? ''}`.trim());
    assert.ok(codes.includes('extra-key bash_command'), 'lang is not declared by the embedded definition');
    assert.ok(codes.includes('unknown-tool mark_task_complete'), 'the trajectory declares its tools, and this is not one');
    assert.ok(codes.includes('orphan-result'), 'call_9 names no call');
  });

  it('claims ATIF by its schema_version, or (a writer without one) by ATIF\'s own step and call shape', () => {
    const claimers = (v: unknown) => ADAPTERS.filter((a) => a.document?.claims(v)).map((a) => a.id);
    assert.deepEqual(claimers(trajectory), ['atif']);
    assert.deepEqual(claimers({ ...trajectory, schema_version: '1.4' }), ['atif'], 'a bare version, ATIF steps calling tools ATIF\'s way');
    const { schema_version: _v, ...unversioned } = trajectory;
    assert.deepEqual(claimers(unversioned), ['atif']);
    assert.deepEqual(claimers({ ...unversioned, steps: trajectory.steps.slice(0, 2) }), [], 'no step calls a tool: nothing says ATIF');
    assert.deepEqual(claimers({ ...unversioned, agent: 'terminus-2' }), [], 'the agent is an object with a name');
  });
});
