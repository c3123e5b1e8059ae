// Corpus expectations: otel/ (see expect.ts).
import assert from 'node:assert/strict';
import { type Expectation, NO_CONTRACT } from './expect';

export const otel: Record<string, Expectation> = {
  'otel/oi-openinference_client_span_tool_calls.json': {
    why: 'a flat OpenInference attribute map: the call and its result are in llm.input_messages (input.value repeats them, read once)',
    format: 'openinference', sessions: 1, calls: 1, results: 1, unanswered: [],
    findings: [['no-contract 14:72 get_weather', NO_CONTRACT]],
  },
  'otel/oi-otel_genai_client_span_tool_calls.json': {
    why: 'a flat GenAI attribute map: tool_call and tool_call_response parts inside the gen_ai.input.messages string',
    format: 'otel', sessions: 1, calls: 1, results: 1, unanswered: [],
    findings: [['no-contract 15:282 get_weather', NO_CONTRACT + '; it points inside the JSON string']],
  },
  'otel/oi-otel_genai_deprecated_client_span_tool_calls.json': {
    why: 'a flat GenAI attribute map with the deprecated gen_ai.prompt holding the parts',
    format: 'otel', sessions: 1, calls: 1, results: 1, unanswered: [],
    findings: [['no-contract 13:274 get_weather', NO_CONTRACT]],
  },
  'otel/oi-otel_genai_tool_execution_span.json': {
    why: 'a flat execute_tool span: the call (gen_ai.tool.name, input) and its result (output) in one span',
    format: 'otel', sessions: 1, calls: 1, results: 1, unanswered: [],
    findings: [['no-contract 3:23 get_weather', NO_CONTRACT]],
  },
  'otel/phoenix-pxi_turn_trace.json': {
    why: 'a Phoenix span array: calls from LLM output messages (and the history), results from TOOL spans with their status',
    format: 'openinference', sessions: 1, calls: 11, results: 11, unanswered: [],
    transport: ['list_datasets spanStatus=OK', 'list_datasets spanStatus=OK', 'ask_user spanStatus=OK', 'create_dataset spanStatus=OK',
      'add_spans_to_dataset spanStatus=ERROR', 'bash spanStatus=OK', 'add_spans_to_dataset spanStatus=OK', 'get_route_info spanStatus=OK'],
    findings: [
      ['no-contract 47:76 load_skill', NO_CONTRACT + ' (an earlier turn, known from the history)'],
      ['no-contract 54:76 read_skill_resource', NO_CONTRACT],
      ['no-contract 61:76 bash', NO_CONTRACT],
      ['no-contract 74:77 list_datasets', NO_CONTRACT + '; its arguments "" are an empty object, not broken JSON'],
      ['no-contract 273:77 ask_user', NO_CONTRACT],
      ['no-contract 383:77 create_dataset', NO_CONTRACT],
      ['no-contract 500:77 add_spans_to_dataset', NO_CONTRACT + '; its ERROR span is an honest failure, and the retry has other spanIds'],
      ['no-contract 904:77 get_route_info', NO_CONTRACT],
    ],
    extra: (r, [s]) => assert.equal(s.id, 'fixture-trace-1', 'a session per trace id'),
  },
};
