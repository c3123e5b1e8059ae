// Corpus expectations: other/ (see expect.ts).
import assert from 'node:assert/strict';
import { type Expectation, NO_CONTRACT } from './expect';

export const other: Record<string, Expectation> = {
  'other/cct-kiro_export.json': {
    why: 'a Kiro export: ToolUse.tool_uses answered by the next turn\'s ToolUseResults (status "Success")',
    format: 'kiro', sessions: 1, calls: 1, results: 1, unanswered: [],
    transport: ['fs_ls isError=false'],
    findings: [['no-contract 20:23 fs_ls', NO_CONTRACT]],
  },
  'other/lsdk-anthropic_managed_custom_tools.jsonl': {
    why: 'a Managed Agents recording of [method, payload] lines: the custom tool\'s schema, its call event and the sent result',
    // the agent also has the built-in toolset (agent_toolset_20260401): its eight tools are declared too, so a
    // bash call in this session would not be an unknown tool
    format: 'anthropic-managed-agents', sessions: 1, calls: 1, results: 1, unanswered: [], tools: 9,
    transport: ['get_weather isError=false'],
    findings: [],
    extra: (r, [s]) => assert.equal(s.calls[0].id, 'sevt_018iPB2RYrthWNKugV6ehDxH', 'the call id is the event id'),
  },
};
