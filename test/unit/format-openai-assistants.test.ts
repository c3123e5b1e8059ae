// OpenAI Assistants API run steps: a list page (newest first), streamed step events, a step's own output as the
// call's result. Traces are small and written for the test after the API's documented shapes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readModel } from './helpers';

function read(text: string, fileName?: string) {
  return readModel(text, { fileName });
}

const J = JSON.stringify;
const fn = (id: string, name: string, args: string, output: string | null) => ({ id, type: 'function', function: { name, arguments: args, output } });
const step = (id: string, created: number, status: string, toolCalls: unknown[]) => ({
  id, object: 'thread.run.step', created_at: created, run_id: 'run_1', thread_id: 'thread_1', type: 'tool_calls', status,
  step_details: { type: 'tool_calls', tool_calls: toolCalls },
});

describe('openai-assistants reader', () => {
  it('a list page (newest first) is read oldest first; each output answers its call', () => {
    const page = { object: 'list', first_id: 'step_3', last_id: 'step_1', has_more: false, data: [
      { id: 'step_3', object: 'thread.run.step', created_at: 30, type: 'message_creation', status: 'completed', step_details: { type: 'message_creation', message_creation: { message_id: 'msg_1' } } },
      step('step_2', 20, 'completed', [fn('call_2', 'get_time', '{"tz": "CET"}', '12:00'), { id: 'ci_1', type: 'code_interpreter', code_interpreter: { input: '1+1', outputs: [] } }]),
      step('step_1', 10, 'completed', [fn('call_1', 'get_weather', '{"city": "Paris"}', '18C')]),
    ] };
    const { r, sessions, codes } = read(J(page), 'steps.json');
    assert.equal(r.format, 'openai-assistants');
    const s = sessions[0];
    // the code interpreter ran on the server: a call of the hosted tool with its code, answered by its outputs
    assert.deepEqual(s.calls.map((c) => [c.id, c.name, c.turn]), [['call_1', 'get_weather', 1], ['call_2', 'get_time', 2], ['ci_1', 'code_interpreter_call', 2]]);
    assert.equal(s.calls[2].encoding, 'freeform');
    assert.deepEqual(s.results.map((x) => [x.callId, x.payload]), [['call_1', '18C'], ['call_2', '12:00'], ['ci_1', []]]);
    assert.ok(!codes.includes('orphan-call') && !codes.includes('orphan-result'), codes.join());
  });

  it('streamed step events: the step created and completed again is one call, with the output it completed with', () => {
    const text = [
      J({ event: 'thread.run.step.created', data: step('step_1', 10, 'in_progress', [fn('call_1', 'get_weather', '{"city": "Paris"}', null)]) }),
      J({ event: 'thread.run.step.completed', data: step('step_1', 10, 'completed', [fn('call_1', 'get_weather', '{"city": "Paris"}', '18C')]) }),
      J({ event: 'thread.run.step.created', data: step('step_2', 20, 'failed', [fn('call_2', 'get_weather', '{"city": Rome}', null)]) }),
    ].join('\n');
    const { r, sessions, codes } = read(text, 'run-events.jsonl');
    assert.equal(r.format, 'openai-assistants');
    assert.deepEqual(sessions[0].calls.map((c) => c.id), ['call_1', 'call_2']);
    assert.deepEqual(sessions[0].results.map((x) => x.callId), ['call_1']);
    assert.deepEqual(r.findings.filter((f) => f.code === 'arguments-encoding').map((f) => f.callId), ['call_2'], codes.join());
  });
});
