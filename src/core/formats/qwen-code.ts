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
import type { FormatAdapter, LineSink } from './adapter';
import type { SessionBuilder } from './builder';
import type { TransportSignals } from '../model';
import type { Doc } from '../parse/doc';
import { readCallParts, readFunctionResponse } from './gemini';
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
      readFunctionResponse(b, doc, ['message', 'parts', i], 'functionResponse', p.functionResponse, undefined, transport);
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
    claims: isRecord,
    open(sink) {
      const reader = new QwenLines(sink);
      return { read: (doc) => reader.read(doc) };
    },
  },
};
