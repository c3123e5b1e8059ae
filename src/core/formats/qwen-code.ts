// Qwen Code (a Gemini CLI fork) chat recordings, `~/.qwen/projects/<project>/chats/<sessionId>.jsonl`: one
// ChatRecord per line `{uuid, parentUuid, sessionId, timestamp, type, subtype?, cwd, version, message?, ...}`.
// `type` is `user`, `assistant`, `tool_result` or `system`; `message` is a Gemini API Content `{role, parts}`.
// A call is a `functionCall` part `{id, name, args}` of an `assistant` record (the record also names its `model`);
// its result is a `functionResponse` part of a later `tool_result` record, whose `toolCallResult` `{callId, status,
// resultDisplay, error, errorType}` is the CLI's own account: `status` `error` / `cancelled` is an honest failure,
// `success` says it ran. A `tool_result` record with no response part answers `toolCallResult.callId` with its
// `resultDisplay`. `system` records (`systemPayload`: compression checkpoints holding copies of earlier contents,
// telemetry, titles) hold no calls of their own. Records of a subagent (`agentId`, `isSidechain`) are a session of
// their own. Lines look like Claude Code's envelope (uuid, parentUuid, sessionId) but carry `message.parts`, never
// `message.content`: that is what tells them apart.
// Also read: `qwen -p --output-format stream-json`, Claude Code's stream-json layout (the SDK's messages: `system`
// init, `assistant` / `user` messages of Anthropic content blocks with `uuid`, `session_id`, `parent_tool_use_id`,
// `stream_event` partials, a closing `result`). Only its init line tells it apart, by `qwen_code_version` (Claude
// Code's says `claude_code_version`); the lines after it are read by Claude Code's reader, but as Qwen's, whose
// tools are its own (Claude Code's pack would misjudge them).
import type { FormatAdapter, LineReader, LineSink } from './adapter';
import type { SessionBuilder } from './builder';
import type { TransportSignals } from '../model';
import type { Doc } from '../parse/doc';
import { openClaudeCodeLines } from './claude-code';
import { readCallParts, readFunctionResponse } from './gemini';
import { shellExitCode } from './gemini-cli';
import { isPlainObject, str, type Obj } from './util';

const RECORD_TYPES = new Set(['user', 'assistant', 'tool_result', 'system']);
const FAILED = new Set(['error', 'cancelled']);

function isEnvelope(v: unknown): v is Obj {
  // a subagent's own transcript may leave out `sessionId`, and records copied by other tools their `uuid`: what
  // makes a record Qwen's is its Gemini content (isRecord), not the envelope
  return isPlainObject(v) && typeof v.type === 'string' && RECORD_TYPES.has(v.type)
    && (v.uuid === undefined || typeof v.uuid === 'string') && (v.sessionId === undefined || typeof v.sessionId === 'string');
}

/** A Content `{role, parts[]}`, the shape Qwen stores and Claude Code never does. */
function contentOf(v: Obj): Obj | undefined {
  const m = v.message;
  return isPlainObject(m) && Array.isArray(m.parts) && !('content' in m) ? m : undefined;
}

/** A record that is Qwen Code's beyond doubt. */
function isRecord(v: unknown): v is Obj {
  if (!isEnvelope(v)) return false;
  if (v.type === 'system') return isPlainObject(v.systemPayload);
  if (v.type === 'tool_result' && isPlainObject(v.toolCallResult)) return true;
  return contentOf(v) !== undefined;
}

function statusSignal(tcr: unknown): TransportSignals | undefined {
  const status = isPlainObject(tcr) ? str(tcr.status) : undefined;
  return status === undefined ? undefined : { isError: FAILED.has(status) };
}

/** The first line of Qwen's stream-json: `{type: "system", subtype: "init", session_id, qwen_code_version, ...}`. */
function isStreamInit(v: unknown): boolean {
  return isPlainObject(v) && v.type === 'system' && v.subtype === 'init' && typeof v.qwen_code_version === 'string';
}

const STREAM_TYPES = new Set(['system', 'user', 'assistant', 'stream_event', 'result']);

/** A stream-json line (what follows the init line): its envelope names the run's `session_id`. */
function isStreamLine(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.type === 'string' && STREAM_TYPES.has(v.type) && typeof v.session_id === 'string'
    && !isRecord(v);
}

class QwenLines {
  constructor(private readonly sink: LineSink) {}

  private builderOf(v: Obj): SessionBuilder {
    const session = str(v.sessionId) ?? '';
    const agent = str(v.agentId);
    return this.sink.sessionFor(agent === undefined ? session : `${session}#${agent}`);
  }

  read(doc: Doc): void {
    const v = doc.value;
    if (!isEnvelope(v) || v.type === 'system') return;
    const b = this.builderOf(v);
    const content = contentOf(v);
    const parts = content ? (content.parts as unknown[]) : [];
    if (v.type === 'assistant') {
      // a model record with calls opens a turn that waits for their results; text alone ends it
      if (readCallParts(b, doc, ['message', 'parts'], parts) === 0) b.breakTurn();
      return;
    }
    if (v.type === 'tool_result') {
      this.toolResult(b, doc, v, parts);
      return;
    }
    b.breakTurn();
  }

  private toolResult(b: SessionBuilder, doc: Doc, v: Obj, parts: unknown[]): void {
    const transport = statusSignal(v.toolCallResult);
    let answered = 0;
    parts.forEach((p, i) => {
      if (!isPlainObject(p) || !isPlainObject(p.functionResponse)) return;
      // the call's arguments are not on this record: its shell tool is known by name
      const exitCode = shellExitCode(p.functionResponse.name, undefined, p.functionResponse.response);
      readFunctionResponse(b, doc, ['message', 'parts', i], 'functionResponse', p.functionResponse, undefined,
        exitCode === undefined || !transport ? transport : { ...transport, exitCode });
      answered++;
    });
    const tcr = v.toolCallResult;
    if (answered === 0 && isPlainObject(tcr) && typeof tcr.callId === 'string') {
      b.result({ at: { doc, path: ['toolCallResult'] }, callId: tcr.callId, payload: tcr.resultDisplay, payloadPath: ['resultDisplay'], transport: transport ?? {} });
    }
  }
}

export const qwenCode: FormatAdapter = {
  id: 'qwen-code',
  lines: {
    // every record of Qwen's proves itself (parts, a toolCallResult, a systemPayload): no looser `accepts`, which
    // would take Claude Code's lines of the same envelope
    claims: (v) => isRecord(v) || isStreamInit(v),
    // after a stream-json init line, the stream's messages (Claude Code would claim them) are this file's
    keeps: isStreamLine,
    open(sink): LineReader {
      const reader = new QwenLines(sink);
      let stream: LineReader | undefined;
      return {
        read(doc) {
          if (isStreamLine(doc.value)) (stream ??= openClaudeCodeLines(sink)).read(doc);
          else reader.read(doc);
        },
      };
    },
  },
};
