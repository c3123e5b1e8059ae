// OpenAI Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): `{timestamp, type, payload}` lines.
// `response_item` payloads are Responses API items: `function_call` / `function_call_output` (read by the
// Responses adapter's reader), `custom_tool_call` (free-form `input`, e.g. an apply_patch body) and its output,
// `local_shell_call` (an exec action) and its output. Exit codes come from `exec_command_end` events and from an
// output's `metadata.exit_code`. Unknown record types are skipped.
import type { FormatAdapter } from './adapter';
import type { SessionBuilder } from './builder';
import { readCustomToolCall, readResponsesItem } from './openai-responses';
import type { ToolResult } from '../model';
import type { Doc } from '../parse/doc';
import { isPlainObject, jsonValue, num, str, type Obj } from './util';

const RECORD_TYPES = new Set(['session_meta', 'turn_context', 'event_msg', 'response_item', 'compacted']);

function isEnvelope(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.timestamp === 'string' && typeof v.type === 'string' && 'payload' in v;
}

interface CodexMemo {
  exitCodes: Map<string, number>;
}

function applyExitCode(b: SessionBuilder, callId: string, code: number): void {
  for (let i = b.session.results.length - 1; i >= 0; i--) {
    const r: ToolResult = b.session.results[i];
    if (r.callId === callId) {
      r.transport.exitCode ??= code;
      return;
    }
  }
}

/** `{"output": ..., "metadata": {"exit_code": N}}`, as Codex encodes a shell tool's output. */
function metadataExitCode(output: unknown): number | undefined {
  const v = jsonValue(output);
  return isPlainObject(v) && isPlainObject(v.metadata) ? num(v.metadata.exit_code) : undefined;
}

function readItem(b: SessionBuilder, doc: Doc, item: Obj, memo: CodexMemo): void {
  const path = ['payload'];
  const callId = str(item.call_id);
  switch (item.type) {
    case 'function_call':
      readResponsesItem(b, doc, path, item);
      return;
    case 'custom_tool_call':
      readCustomToolCall(b, doc, path, item);
      return;
    case 'local_shell_call':
      b.call({ name: 'local_shell_call', id: callId ?? str(item.id), at: { doc, path }, namePath: ['type'], argsPath: ['action'],
        args: item.action, expect: 'object' });
      return;
    case 'function_call_output':
    case 'custom_tool_call_output':
    case 'local_shell_call_output': {
      const exitCode = (callId !== undefined ? memo.exitCodes.get(callId) : undefined) ?? metadataExitCode(item.output);
      b.result({ at: { doc, path }, callId, payload: item.output, payloadPath: ['output'], transport: exitCode === undefined ? {} : { exitCode } });
      b.breakTurn();
      return;
    }
    case 'reasoning':
      return;
    default:
      b.breakTurn();
  }
}

export const codex: FormatAdapter = {
  id: 'codex',
  packs: ['codex'],
  lines: {
    claims(v) {
      return isEnvelope(v) && RECORD_TYPES.has(v.type as string) && isPlainObject(v.payload);
    },
    accepts: isEnvelope,
    open({ builder: b }) {
      const memo: CodexMemo = { exitCodes: new Map() };
      return {
        read(doc) {
          const line = doc.value as Obj;
          const payload = line.payload;
          if (!isPlainObject(payload)) return;
          if (line.type === 'session_meta') {
            b.session.id ??= str(payload.id);
          } else if (line.type === 'response_item') {
            readItem(b, doc, payload, memo);
          } else if (line.type === 'event_msg' && payload.type === 'exec_command_end') {
            const callId = str(payload.call_id);
            const code = num(payload.exit_code);
            if (callId !== undefined && code !== undefined) {
              memo.exitCodes.set(callId, code);
              applyExitCode(b, callId, code);
            }
          }
        },
      };
    },
  },
};
