// Where the tests of each check and each reader live, for those without a file named after them
// (`check-<code>.test.ts`, `format-<id>.test.ts`). Paths are relative to test/unit. `findable.test.ts` keeps this
// true: every code in CHECKS and every id in ADAPTERS has a file of its own or a row here, every file named here
// exists and names what it is listed for, and no row outlives its check or reader.

/** Check code → the test files that exercise it first (not every file that happens to meet it). */
export const CHECK_TESTS: Record<string, string[]> = {
  // the per-call codes, on the seed fixtures in every format, at exact positions
  'unknown-tool': ['per-call.test.ts', 'contracts.test.ts'],
  'no-contract': ['per-call.test.ts', 'packs.test.ts'],
  'arguments-encoding': ['per-call.test.ts', 'reading.test.ts'],
  'missing-key': ['per-call.test.ts', 'contracts.test.ts'],
  'extra-key': ['per-call.test.ts', 'contracts.test.ts'],
  'type-drift': ['per-call.test.ts', 'regressions.test.ts'],
  constraint: ['per-call.test.ts', 'contracts.test.ts'],
  'schema-drift': ['per-call.test.ts', 'regressions.test.ts'],
  // the cross-call codes, each in OpenAI Chat and Anthropic JSONL, then on the corpus
  'duplicate-fingerprint': ['cross-call.test.ts', 'cross-call-corpus.test.ts'],
  'stale-digest': ['cross-call.test.ts', 'cross-call-corpus.test.ts'],
  'status-theater': ['cross-call.test.ts', 'cross-call-corpus.test.ts', 'results-mcp.test.ts'],
  'orphan-call': ['cross-call.test.ts', 'cross-call-corpus.test.ts'],
  'orphan-result': ['cross-call.test.ts', 'cross-call-corpus.test.ts'],
  'duplicate-call-id': ['cross-call.test.ts', 'cross-call-corpus.test.ts'],
  'assumed-value': ['cross-call.test.ts', 'cross-call-corpus.test.ts'],
  'result-contract': ['result-contract.test.ts'],
  'call-in-text': ['call-in-text.test.ts'],
};

/** Reader id → its tests: synthetic traces (`*.test.ts`) and what each corpus file must read as (`corpus/*.ts`). */
export const FORMAT_TESTS: Record<string, string[]> = {
  'claude-code': ['corpus/claude-code.ts', 'packs.test.ts'],
  codex: ['corpus/codex-cli.ts', 'responses-items.test.ts', 'real-layouts-agents.test.ts'],
  mcp: ['formats.test.ts', 'corpus/mcp.ts'],
  stream: ['formats.test.ts', 'text-shape.test.ts'],
  'http-cassette': ['audit-chat.test.ts', 'format-ollama.test.ts', 'layout-shifts.test.ts', 'real-layouts-cassettes.test.ts'],
  otel: ['format-spans.test.ts', 'corpus/otel.ts', 'real-layouts-spans.test.ts'],
  openinference: ['format-spans.test.ts', 'formats.test.ts', 'corpus/otel.ts'],
  langfuse: ['corpus/langfuse-export.ts', 'real-layouts-evals.test.ts'],
  inspect: ['corpus/inspect-ai.ts', 'real-layouts-evals.test.ts', 'real-layouts-evals3.test.ts', 'real-layouts-evals4.test.ts'],
  'swe-agent': ['corpus/swe-agent.ts', 'packs.test.ts'],
  openhands: ['corpus/openhands.ts', 'packs.test.ts', 'real-layouts-agents.test.ts'],
  'qwen-code': ['real-layouts-agents.test.ts'],
  'cursor-agent': ['real-layouts-agents.test.ts'],
  continue: ['real-layouts-agents2.test.ts'],
  amp: ['real-layouts-agents2.test.ts'],
  'open-interpreter': ['real-layouts-agents2.test.ts'],
  'tau-bench': ['corpus/tau-bench.ts', 'regressions.test.ts', 'real-layouts-evals.test.ts', 'real-layouts-evals3.test.ts'],
  'mini-swe-agent': ['corpus/mini-swe-agent.ts', 'audit-agents.test.ts', 'real-layouts-evals3.test.ts', 'real-layouts-evals4.test.ts'],
  kiro: ['corpus/other.ts', 'audit-agents.test.ts'],
  langsmith: ['corpus/langchain.ts', 'audit-agents.test.ts', 'real-layouts-evals.test.ts'],
  weave: ['real-layouts-evals.test.ts'],
  braintrust: ['real-layouts-spans.test.ts'],
  opik: ['real-layouts-spans.test.ts'],
  'pydantic-ai': ['real-layouts-frameworks.test.ts'],
  'google-adk': ['real-layouts-frameworks.test.ts'],
  autogen: ['real-layouts-frameworks.test.ts'],
  smolagents: ['real-layouts-frameworks.test.ts'],
  strands: ['real-layouts-frameworks.test.ts'],
  dspy: ['real-layouts-frameworks.test.ts'],
  'semantic-kernel': ['real-layouts-frameworks.test.ts'],
  langgraph: ['real-layouts-frameworks.test.ts'],
  crewai: ['real-layouts-frameworks3.test.ts'],
  agno: ['real-layouts-frameworks3.test.ts'],
  llamaindex: ['real-layouts-frameworks3.test.ts'],
  mastra: ['real-layouts-frameworks3.test.ts'],
  'ai-sdk': ['real-layouts-frameworks3.test.ts'],
  'bedrock-converse': ['format-bedrock.test.ts', 'corpus/bedrock.ts'],
  'anthropic-managed-agents': ['audit-chat.test.ts', 'corpus/other.ts'],
  bfcl: ['corpus/bfcl.ts', 'audit-agents.test.ts', 'real-layouts-evals.test.ts', 'real-layouts-evals3.test.ts', 'real-layouts-evals4.test.ts'],
  'openai-responses': ['responses-items.test.ts', 'per-call.test.ts', 'corpus/openai-responses.ts'],
  anthropic: ['per-call.test.ts', 'cross-call.test.ts', 'corpus/anthropic-messages.ts'],
  'openai-chat': ['per-call.test.ts', 'cross-call.test.ts', 'corpus/openai-chat.ts'],
  calls: ['per-call.test.ts', 'corpus-formats.test.ts'],
};
