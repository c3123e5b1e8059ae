// Every corpus folder's expectations, in one table keyed by the file's path under ../shared/corpus/.
import type { Expectation } from './expect';
import { anthropicMessages } from './anthropic-messages';
import { bfcl } from './bfcl';
import { claudeCode } from './claude-code';
import { cline } from './cline';
import { codexCli } from './codex-cli';
import { inspectAi } from './inspect-ai';
import { langchain } from './langchain';
import { langfuseExport } from './langfuse-export';
import { letta } from './letta';
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
import { opencode } from './opencode';
import { copilotCli } from './copilot-cli';
import { goose } from './goose';
import { geminiCli } from './gemini-cli';
import { geminiApi } from './gemini-api';
import { bedrock } from './bedrock';
import { cohere } from './cohere';

export const EXPECT: Record<string, Expectation> = {
  ...anthropicMessages,
  ...bfcl,
  ...claudeCode,
  ...cline,
  ...codexCli,
  ...inspectAi,
  ...langchain,
  ...langfuseExport,
  ...letta,
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
  ...opencode,
  ...copilotCli,
  ...goose,
  ...geminiCli,
  ...geminiApi,
  ...bedrock,
  ...cohere,
};

export { callOf, NO_CONTRACT, type Expectation } from './expect';
