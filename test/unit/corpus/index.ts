// Every corpus folder's expectations, in one table keyed by the file's path under ../shared/corpus/.
import type { Expectation } from './expect';
import { anthropicMessages } from './anthropic-messages';
import { bfcl } from './bfcl';
import { claudeCode } from './claude-code';
import { codexCli } from './codex-cli';
import { inspectAi } from './inspect-ai';
import { langchain } from './langchain';
import { langfuseExport } from './langfuse-export';
import { mcp } from './mcp';
import { miniSweAgent } from './mini-swe-agent';
import { openaiAgents } from './openai-agents';
import { openaiChat } from './openai-chat';
import { openaiResponses } from './openai-responses';
import { openhands } from './openhands';
import { otel } from './otel';
import { other } from './other';
import { sweAgent } from './swe-agent';
import { tauBench } from './tau-bench';

export const EXPECT: Record<string, Expectation> = {
  ...anthropicMessages,
  ...bfcl,
  ...claudeCode,
  ...codexCli,
  ...inspectAi,
  ...langchain,
  ...langfuseExport,
  ...mcp,
  ...miniSweAgent,
  ...openaiAgents,
  ...openaiChat,
  ...openaiResponses,
  ...openhands,
  ...otel,
  ...other,
  ...sweAgent,
  ...tauBench,
};

export { callOf, NO_CONTRACT, type Expectation } from './expect';
