// Corpus expectations: codex-cli/ (see expect.ts).
import assert from 'node:assert/strict';
import { type Expectation, NO_CONTRACT } from './expect';

export const codexCli: Record<string, Expectation> = {
  'codex-cli/localpush-rollout-019c8a4c-redacted.excerpt-l1-186.jsonl': {
    why: 'a sanitised Codex Desktop rollout: placeholder arguments are text, not broken JSON; a web_search_call is its own result',
    format: 'codex', sessions: 1, calls: 28, results: 28, unanswered: [],
    transport: ['web_search isError=false'],
    findings: [
      ['no-contract 17:105 exec_command', NO_CONTRACT + '; its "[REDACTED_ARGUMENTS …]" is no arguments-encoding fault'],
      ['no-contract 105:171 apply_patch', NO_CONTRACT + ' (custom_tool_call, free-form input)'],
      ['no-contract 123:82 web_search', NO_CONTRACT + ': the hosted search (no call_id, no action, status completed)'],
      ['no-contract 127:105 write_stdin', NO_CONTRACT],
      ['duplicate-fingerprint 133:105 write_stdin', 'the same placeholder (same sha) as line 127: one poll repeated with nothing in between (without the Codex pack, which marks write_stdin volatile)'],
      ['duplicate-fingerprint 139:105 write_stdin', 'the third identical poll'],
      ['duplicate-fingerprint 145:105 write_stdin', 'the fourth'],
      ['duplicate-fingerprint 151:105 write_stdin', 'the fifth'],
      ['duplicate-fingerprint 157:105 write_stdin', 'the sixth'],
      ['duplicate-fingerprint 163:105 write_stdin', 'the seventh'],
    ],
    extra: (r, [s]) => {
      assert.equal(s.calls[0].encoding, 'freeform');
      assert.equal(s.calls[0].args, '[REDACTED_ARGUMENTS len=153 sha=23291271]');
      assert.equal(s.calls.filter((c) => c.name === 'exec_command').length, 19);
      const turns = new Set(s.calls.map((c) => c.turn));
      assert.equal(turns.size, 20, 'a turn_context before each model request: every response its own turn, parallel calls share one');
    },
  },
  'codex-cli/localpush-rollout-019c8bfe-mcp-redacted.jsonl': {
    why: 'a sanitised Codex Desktop rollout of MCP calls (mcp__<server>__<tool>), one tool name itself redacted',
    format: 'codex', sessions: 1, calls: 5, results: 5, unanswered: [],
    transport: [],
    findings: [
      ['no-contract 17:105 mcp__cloud-associates__search_workflows', NO_CONTRACT + '; placeholder arguments are kept as text'],
      ['no-contract 26:105 [REDACTED_NAME len=43 sha=c186413b]', NO_CONTRACT + ': the name as the file writes it'],
      ['no-contract 35:105 mcp__cloud-associates__execute_workflow', NO_CONTRACT + ' (three calls, each with different arguments)'],
    ],
  },
  'codex-cli/ccl-rollout-11111111.jsonl': {
    why: 'a Codex rollout: {timestamp, type, payload} lines; an unknown record type at the end is skipped',
    format: 'codex', sessions: 1, calls: 3, results: 3, unanswered: [],
    transport: [],
    findings: [
      ['no-contract 6:105 exec_command', NO_CONTRACT],
      ['no-contract 8:108 apply_patch', NO_CONTRACT + '; its free-form patch input is no arguments-encoding fault'],
      ['no-contract 10:105 mcp__synthetic__lookup', NO_CONTRACT],
    ],
    extra: (r, [s]) => {
      assert.equal(s.id, '11111111-1111-4111-8111-111111111111', 'session_meta names the session');
      assert.equal(s.calls[1].encoding, 'freeform');
      assert.match(s.calls[1].args as string, /^\*\*\* Begin Patch/);
    },
  },
};
