// Checks across calls on real traces and on the seed fixture.
// 1. ../shared/corpus/: no status-theater, duplicate-fingerprint or stale-digest that a person reading the file
//    would call false. Every file is checked (new adapters are covered as they land); the files read so far are
//    listed with the reason their silence (or their finding) is right. Skips cleanly when the corpus is absent.
// 2. fixtures/traces/boundary.anthropic.jsonl tells the seed's five anti-patterns end to end: exact findings.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkText, loadContracts, LineIndex } from '../../src/core';

function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json')) || !existsSync(path.join(dir, 'fixtures'))) dir = path.dirname(dir);
  return dir;
}

const ROOT = repoRoot();
const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus');
const GUARDED = new Set(['status-theater', 'duplicate-fingerprint', 'stale-digest']);

/** Files read and judged by hand, with why no guarded finding is right. */
const CHECKED: Record<string, string> = {
  'anthropic-messages/vai-anthropic-mcp.1.json': 'one mcp echo call, result is_error false with plain text: nothing repeats, nothing failed',
  'anthropic-messages/vai-anthropic-programmatic-tool-calling.1.json': 'four rollDie calls with identical input in one message are a fan-out of dice rolls, not a loop; code_execution exit 0 with clean stdout',
  'anthropic-messages/vai-anthropic-tool-no-args.json': 'a single updateIssueList call with {} and no result',
  'claude-code/cct-sample_session.json': 'twelve calls, no two identical (pytest twice, with and without -v); the failing pytest run is is_error: true, an honest failure; no digests reported',
  'claude-code/cct-sample_session.jsonl': 'Write then Bash, different tools, clean results',
  'claude-code/ccl-edge_cases.jsonl': 'FailingTool returns is_error: true with "Error: ..." text: honest, not theater',
  'claude-code/ccl-representative_messages.jsonl': 'Edit then Bash with is_error: false and ordinary output',
  'claude-code/ccl-todowrite_examples.jsonl': 'three TodoWrite calls, each with other todo statuses: different arguments',
  'codex-cli/ccl-rollout-11111111.jsonl': 'exec_command, apply_patch and an MCP lookup, once each; exit codes 0 with clean output',
  'mcp/explore-mcp-filesystem-session_20251023_230251.jsonl': 'read_file, list_directory, write_file once each; CallToolResults with isError false and ordinary content; no digests',
  'langfuse-export/claude-agent-2025-12-22.trace.json': 'get_weather twice with different cities',
  'langfuse-export/openai-agents-2025-09-30.json': 'one get_weather call',
  'langfuse-export/pydantic-ai-tools-2025-12-04.json': 'three different tools with the same {topic} (different fingerprints); final_result ends the trace (info orphan only)',
  'otel/phoenix-pxi_turn_trace.json': 'list_datasets twice with other arguments (pagination); add_spans_to_dataset with span status ERROR is honest, its retry has other spanIds',
  'otel/oi-openinference_client_span_tool_calls.json': 'one get_weather call and its result',
  'otel/oi-otel_genai_client_span_tool_calls.json': 'one get_weather call and its result',
  'otel/oi-otel_genai_deprecated_client_span_tool_calls.json': 'one get_weather call and its result',
  'otel/oi-otel_genai_tool_execution_span.json': 'one tool execution span with status unset and a normal result',
  'openai-responses/vai-parallel-tool-call-wrapper.1.json': 'weather and cityAttractions: different tools, no results',
  'openai-responses/vai-programmatic-tool-calling.1.json': 'one getInventory call, no result',
  'openai-responses/vai-openai-tool-search.1.json': 'one get_weather call, no result',
  'openai-chat/vai-deepseek-reasoner-tool-call.json': 'one weather call in a response, no result',
  'openai-chat/vai-alibaba-qwen3-tool-call.chunks.jsonl': 'one streamed weather call, no result',
};

/** Guarded findings that are true, with why (a person reading the file would report them too). */
const TRUE_FINDINGS: Record<string, string> = {
  'swe-agent/pydicom-1458_textaction.traj: duplicate-fingerprint edit called 2× with the same arguments and nothing changed in between; same result each time':
    'history[15] and history[17] are the same `edit 287:295` text action, both answered "Your proposed edit has introduced new syntax error(s)": a verbatim retry after a failure, the stuck loop',
  'cline/mra-api_conversation_history.excerpt-elems0-16.json: duplicate-fingerprint read_file called 2× with the same arguments and nothing changed in between; same result each time':
    'after "[TASK RESUMPTION]" the agent reads again two files it had read, with nothing written in between, and gets the same content back: a wasted re-read (reported once per file)',
};

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe('checks across calls on the real corpus', { skip: !existsSync(CORPUS) && 'corpus absent' }, () => {
  it('reports no status-theater, duplicate-fingerprint or stale-digest on any corpus trace', () => {
    const files = walk(CORPUS).filter((f) => /\.(json|jsonl|traj)$/.test(f));
    assert.ok(files.length > 20, 'the corpus has its traces');
    const wrong: string[] = [];
    for (const file of files) {
      const rel = path.relative(CORPUS, file).split(path.sep).join('/');
      const text = readFileSync(file, 'utf8');
      for (const f of checkText(text, { fileName: file }).findings) {
        const line = `${rel}: ${f.code} ${f.message}`;
        if (GUARDED.has(f.code) && !(line in TRUE_FINDINGS)) wrong.push(line);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('every file judged by hand is still there', () => {
    assert.deepEqual(Object.keys(CHECKED).filter((rel) => !existsSync(path.join(CORPUS, rel))), []);
  });

  it('the dice fan-out is not a duplicate, and its unanswered rolls are info at the end of the trace', () => {
    const rel = 'anthropic-messages/vai-anthropic-programmatic-tool-calling.1.json';
    const text = readFileSync(path.join(CORPUS, rel), 'utf8');
    const index = LineIndex.of(text);
    const got = checkText(text, { fileName: rel }).findings
      .filter((f) => f.code.startsWith('orphan') || f.code.startsWith('duplicate'))
      .map((f) => `${f.code} ${f.severity} ${index.position(f.span.start).line}:${index.position(f.span.start).column}`);
    assert.deepEqual(got, ['orphan-call info 25:15', 'orphan-call info 37:15', 'orphan-call info 49:15', 'orphan-call info 61:15']);
  });
});

describe('the seed fixture: five anti-patterns at the tool boundary', () => {
  it('fixtures/traces/boundary.anthropic.jsonl gets exactly these cross-call findings', () => {
    const dir = path.join(ROOT, 'fixtures', 'contracts');
    const files = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => ({ path: f, text: readFileSync(path.join(dir, f), 'utf8') }));
    const loaded = loadContracts(files);
    assert.deepEqual(loaded.findings, []);
    const text = readFileSync(path.join(ROOT, 'fixtures', 'traces', 'boundary.anthropic.jsonl'), 'utf8');
    const index = LineIndex.of(text);
    const got = checkText(text, { fileName: 'boundary.anthropic.jsonl', contracts: loaded.contracts }).findings.map((f) => {
      const p = index.position(f.span.start);
      return `${p.line}:${p.column} ${f.severity} ${f.code} ${f.message}`;
    });
    assert.deepEqual(got, [
      // 3. same-args retry theater (the third call writes its keys in another order: same fingerprint)
      '4:147 warning duplicate-fingerprint search_repo called 2× with the same arguments and nothing changed in between; same result each time',
      '6:132 warning duplicate-fingerprint search_repo called 3× with the same arguments and nothing changed in between; same result each time',
      // 2. raw dump into the next turn: an id nobody offered
      '14:166 warning assumed-value open_issue.issue_id ISSUE-71 was not in any of the 4 earlier search_repo results',
      // 1. status-code theater
      '19:30 warning status-theater run_tests: transport says success (HTTP 200) but the body says ok: false',
      '21:30 warning status-theater Bash: transport says success (exit 0) but the text starts like an error (heuristic): "fatal: not a git repository (or any of the par…',
      // 4. side-effect amnesia
      '27:176 warning stale-digest write_note claimed a write to notes/a.md; digest 9f2c1e04 unchanged',
      '32:190 warning stale-digest edit_note uses digest 9f2c1e04 of notes/a.md, current is 4b7d90aa (since write_note, turn 14)',
      '35:30 warning status-theater publish_note: envelope says ok: false but still carries a result {"url":"https://notes.example/a"}',
      // 5. single-session folklore: the report is stitched from runs
      '36:148 warning orphan-call run_tests (toolu_t3) got no result; the session went on without it',
      '37:161 warning duplicate-call-id toolu_s1 is already the id of search_repo (turn 1); publish_note reuses it',
      '38:204 warning orphan-result result for toolu_x9 matches no call in this session',
      '39:133 info orphan-call run_tests (toolu_t4) is still awaiting its result: the trace ends here',
    ]);
  });
});
