// The one list of format adapters, in the order they are asked. More specific formats come first.
import type { FormatAdapter } from './adapter';
import { anthropic } from './anthropic';
import { calls } from './calls';
import { openaiChat } from './openai-chat';
import { openaiResponses } from './openai-responses';
import { claudeCode } from './claude-code';
import { codex } from './codex';
import { httpCassetteAdapter } from './http-cassette';
import { mcp } from './mcp';
import { stream } from './stream';
import { openinference } from './openinference';
import { otel } from './otel';
import { langfuse } from './langfuse';
import { inspect } from './inspect';
import { miniSweAgent } from './mini-swe-agent';
import { openhands } from './openhands';
import { sweAgent } from './swe-agent';
import { tauBench } from './tau-bench';
import { anthropicManaged } from './anthropic-managed';
import { bfcl } from './bfcl';
import { kiro } from './kiro';
import { langsmith } from './langsmith';
import { openaiAgents } from './openai-agents';

const httpCassette = httpCassetteAdapter(() => ADAPTERS);

export const ADAPTERS: readonly FormatAdapter[] = [
  claudeCode,
  codex,
  mcp,
  stream,
  httpCassette,
  otel,
  openinference,
  langfuse,
  inspect,
  sweAgent,
  openhands,
  tauBench,
  miniSweAgent,
  openaiAgents,
  kiro,
  langsmith,
  anthropicManaged,
  bfcl,
  openaiResponses,
  anthropic,
  openaiChat,
  calls,
];

export type { FormatAdapter, LineState } from './adapter';
