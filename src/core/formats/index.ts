// The one list of format adapters, in the order they are asked. More specific formats come first.
import type { FormatAdapter } from './adapter';
import { anthropic } from './anthropic';
import { calls } from './calls';
import { openaiChat } from './openai-chat';
import { openaiResponses } from './openai-responses';
import { openaiAssistants } from './openai-assistants';
import { mistralConversations } from './mistral-conversations';
import { claudeCode } from './claude-code';
import { codex } from './codex';
import { entire } from './entire';
import { droid } from './droid';
import { httpCassetteAdapter } from './http-cassette';
import { mcp } from './mcp';
import { acp } from './acp';
import { stream } from './stream';
import { openinference } from './openinference';
import { otel } from './otel';
import { langfuse } from './langfuse';
import { braintrust } from './braintrust';
import { opik } from './opik';
import { inspect } from './inspect';
import { miniSweAgent } from './mini-swe-agent';
import { openhands } from './openhands';
import { sweAgent } from './swe-agent';
import { tauBench } from './tau-bench';
import { anthropicManaged } from './anthropic-managed';
import { bfcl } from './bfcl';
import { kiro } from './kiro';
import { langsmith } from './langsmith';
import { weave } from './weave';
import { openaiAgents } from './openai-agents';
import { cline } from './cline';
import { atif } from './atif';
import { letta } from './letta';
import { pydanticAi } from './pydantic-ai';
import { googleAdk } from './google-adk';
import { autogen } from './autogen';
import { smolagents } from './smolagents';
import { strands } from './strands';
import { dspy } from './dspy';
import { semanticKernel } from './semantic-kernel';
import { haystack } from './haystack';
import { agentFramework } from './agent-framework';
import { camel } from './camel';
import { langgraph } from './langgraph';
import { langchainEvents } from './langchain-events';
import { llamaIndex } from './llamaindex';
import { agno } from './agno';
import { crewai } from './crewai';
import { opencode } from './opencode';
import { copilotCli } from './copilot-cli';
import { continueDev } from './continue';
import { amp } from './amp';
import { openInterpreter } from './open-interpreter';
import { cursorAgent } from './cursor-agent';
import { antigravity } from './antigravity';
import { goose } from './goose';
import { mastra } from './mastra';
import { aiSdk } from './ai-sdk';
import { gemini } from './gemini';
import { geminiCli } from './gemini-cli';
import { qwenCode } from './qwen-code';
import { bedrock } from './bedrock';
import { bedrockAgent } from './bedrock-agent';
import { cohere } from './cohere';
import { ollama } from './ollama';
import { sharegpt } from './sharegpt';
import { glaive } from './glaive';
import { xlam } from './xlam';
import { toolbench } from './toolbench';
import { generic } from './generic';

const httpCassette = httpCassetteAdapter(() => ADAPTERS);

export const ADAPTERS: readonly FormatAdapter[] = [
  qwenCode, // its records share Claude Code's envelope (uuid, sessionId) and claim only lines with Gemini `parts`
  claudeCode,
  entire, // Entire's compact transcripts (`{v, agent, cli_version, type, content}`): no other reader claims them
  droid, // `type: message` records wrapping an Anthropic `message`: before the Responses readers, which take `type: message` items
  codex,
  acp, // Agent Client Protocol JSON-RPC: before MCP's reader, which takes any JSON-RPC line
  mcp,
  stream,
  httpCassette,
  otel,
  openinference,
  langfuse,
  braintrust, // span rows (`span_attributes`, `root_span_id`), read through the span pairing like Opik's spans
  opik,
  inspect,
  sweAgent,
  openhands,
  tauBench,
  miniSweAgent,
  openaiAgents,
  letta,
  pydanticAi,
  googleAdk, // its events hold Gemini `Content`: before the Gemini readers
  autogen,
  smolagents,
  strands, // a session message holds a Converse message: before bedrock-converse
  dspy,
  semanticKernel,
  haystack, // `{role, content: [{tool_call} | {tool_call_result}]}`: the chat readers would take its tool messages alone
  camel, // CAMEL memory records (`{message: {__class__: FunctionCallingMessage}, role_at_backend}`): no other reader claims them
  agentFramework, // `{role, contents: [{type: function_call}]}`: the Responses and chat readers would take its parts or its tool messages alone
  langgraph,
  langchainEvents, // `astream_events` lines (`{event: "on_tool_start", run_id, data}`): no other reader claims them
  crewai, // a task output's `messages` pass for a Chat request: before the chat readers, which would miss its ReAct text calls
  agno, // OpenAI chat messages with its own error flag (`tool_call_error`) and history copies: before the chat readers, which would read neither
  llamaIndex, // ChatMessages keep calls in `additional_kwargs` / typed blocks: before the chat readers, which would see none
  kiro,
  opencode,
  copilotCli,
  continueDev, // `{sessionId, history: [{message, toolCallStates}]}`: the broad chat readers would take its tool messages alone
  amp, // a `T-…` thread of Anthropic-like messages whose results name `toolUseID`: before the Anthropic reader
  openInterpreter, // `{role, type, format, content}` messages; `role: computer` and typed code are its own
  cursorAgent,
  antigravity, // Antigravity's steps (`{step_index, source, type, created_at}`): no other reader claims them
  goose,
  mastra, // memory messages are the AI SDK's, kept with their thread: before the plain AI SDK reader
  aiSdk, // UI messages' `parts` and model messages' `tool-call` parts: before the Gemini and chat readers, which would take the lists
  geminiCli,
  gemini,
  langsmith,
  weave, // a call's `op_name` (`weave:///…/op/…`) is its own; its output may be a Chat completion the broad readers would take
  bedrockAgent, // Bedrock Agents trace events (`{trace: {trace: {orchestrationTrace}}}`): no other reader claims them
  bedrock,
  cohere,
  ollama,
  anthropicManaged,
  bfcl,
  sharegpt, // training data: `{from, value}` turns, LLaMA-Factory's `function_call` / `observation` roles, Hermes' text tags
  glaive, // training data: `{system, chat}` texts with `<functioncall>` turns
  xlam, // training data: `{query, tools, answers}`, the answers JSON strings of calls
  toolbench, // ToolBench answer files: `answer_generation.train_messages`, before the Chat reader takes each prefix
  cline,
  atif,
  openaiAssistants,
  mistralConversations, // entries typed `function.call` / `function.result` (dotted, not the Responses items' names)
  openaiResponses,
  anthropic,
  openaiChat,
  calls,
];

/** The reader of last resort: asked only when no adapter above claims anything in a file (or when forced). */
export const SHAPE_READER: FormatAdapter | undefined = generic;

/** Every reader `--read-as` can name, by id. */
export function adapterById(id: string): FormatAdapter | undefined {
  return ADAPTERS.find((a) => a.id === id) ?? (SHAPE_READER?.id === id ? SHAPE_READER : undefined);
}

/** The ids `--read-as` takes. */
export function readerIds(): string[] {
  return [...ADAPTERS.map((a) => a.id), ...(SHAPE_READER ? [SHAPE_READER.id] : [])];
}

export type { DocumentFormat, FormatAdapter, LineFormat, LineReader, LineSink } from './adapter';
export { claims } from './adapter';
