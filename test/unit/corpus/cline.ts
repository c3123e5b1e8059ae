// Corpus expectations: cline/ (see expect.ts).
import assert from 'node:assert/strict';
import { type Expectation, NO_CONTRACT, callOf } from './expect';

export const cline: Record<string, Expectation> = {
  'cline/mcpvscode-ui_messages.excerpt-elems277-379.json': {
    why: 'a Cline ui_messages.json: tool actions are JSON strings in `text` (say/ask tool, ask use_mcp_server, say command)',
    format: 'cline', sessions: 1, calls: 15, results: 15, unanswered: [],
    transport: ['open_explorer isError=true', 'open_explorer isError=true', 'change_theme isError=true'],
    findings: [
      ['no-contract 1:3922 list_files', NO_CONTRACT + '; the ui tag listFilesTopLevel is read as the tool it shows'],
      ['no-contract 1:5328 read_file', NO_CONTRACT + ' (ui tag readFile)'],
      ['no-contract 1:7743 open_explorer', NO_CONTRACT + ': the MCP tool named by toolName; both calls failed with Cline\'s "Error:\\n" prefix, honest failures'],
      ['no-contract 1:9389 execute_command', NO_CONTRACT + ': a say command line, free-form text; each answered by its first command_output chunk'],
      ['no-contract 1:19407 write_to_file', NO_CONTRACT + ' (ui tag newFileCreated)'],
      ['no-contract 1:28320 replace_in_file', NO_CONTRACT + ' (ui tag editedExistingFile): a writer, so the re-run of the same node command after it is no duplicate'],
      ['no-contract 1:53906 change_theme', NO_CONTRACT + '; its MCP timeout is an honest failure'],
    ],
    extra: (r, [s]) => {
      assert.deepEqual(s.calls[14].args, { theme: 'Default Dark+' }, 'the MCP arguments: a JSON string inside the JSON string of the ask text');
      assert.equal(s.calls[14].encoding, 'json-string');
      assert.equal(s.calls[3].encoding, 'freeform', 'a command line is text, not JSON');
      const tool = s.results.find((x) => callOf(s, x)?.name === 'read_file');
      assert.deepEqual(tool?.at.path, ['request'], 'a ui tool message is answered by the next api_req_started request text');
      assert.match(String(tool?.payload), /^\{\n {2}"mcpServers"/, 'the body after the [read_file for …] Result: header');
      assert.equal(s.results.filter((x) => callOf(s, x)?.name === 'open_explorer').length, 2, 'the request that repeats an MCP response is not a second result');
    },
  },
  'cline/mra-api_conversation_history.excerpt-elems0-16.json': {
    why: 'a Cline api_conversation_history.json (native tool_use; results are "[tool for \'x\'] Result:" text blocks); the anthropic adapter leaves it alone',
    format: 'cline', sessions: 1, calls: 17, results: 15, unanswered: ['ask_followup_question', 'plan_mode_respond'],
    transport: [],
    findings: [
      ['no-contract 1:11964 use_subagents', NO_CONTRACT + '; answered by the "[subagents] Result:" text, which names the tool without its prefix'],
      ['no-contract 1:24045 list_files', NO_CONTRACT],
      ['no-contract 1:24470 read_file', NO_CONTRACT],
      ['no-contract 1:44679 search_files', NO_CONTRACT],
      ['no-contract 1:51062 ask_followup_question', NO_CONTRACT],
      ['orphan-call 1:51062 ask_followup_question', 'the next user message is a [TASK RESUMPTION], not its answer: the task went on without it'],
      ['duplicate-fingerprint 1:58610 read_file', 'terraform/main.tf read again after the resumption, same arguments, nothing written in between, and the same content came back'],
      ['duplicate-fingerprint 1:58767 read_file', 'src/lib/firebase-admin.ts likewise (the first re-read differs: it carries task_progress)'],
      ['no-contract 1:74693 plan_mode_respond', NO_CONTRACT],
      ['orphan-call 1:74693 plan_mode_respond', 'answered by another [TASK RESUMPTION] only'],
    ],
    extra: (r, [s]) => {
      assert.equal(callOf(s, s.results[0])?.name, 'use_subagents');
      assert.deepEqual(s.results.map((x) => x.callIndex).slice(1, 4), [1, 2, 3], 'three text blocks answer the three parallel calls in order');
      assert.match(String(s.results[1].payload), /^dev\.ts\n/, 'the payload is the text after the header');
      assert.equal(s.turns, 8, 'one turn per assistant message');
    },
  },
};
