// OpenAI Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): `{timestamp, type, payload}` lines.
// `response_item` payloads are Responses API items: `function_call` / `function_call_output` (read by the
// Responses adapter's reader; MCP tools are `mcp__<server>__<tool>` function calls), `custom_tool_call` (free-form
// `input`, e.g. an apply_patch body: text by design, never an encoding fault) and its output, `local_shell_call`
// (an exec action; its output is a `function_call_output` with its call_id), and `web_search_call` (a hosted
// search, the tool `web_search`, with no call_id and no output item: it is its own result). A `turn_context` precedes every model request: a turn
// boundary (the model's commentary messages between its calls are not). `compacted` records hold copies of earlier items and are not read again. Transport signals come from
// the events that name a call_id — `exec_command_end` (exit_code), `mcp_tool_call_end` (the result's isError, or
// an Err), `patch_apply_end` (success) — whichever comes first, the event or the output, and from the output
// itself (`metadata.exit_code`, or the "Exit code: N" / "Process exited with code N" header of newer shell
// output). Sanitised fixtures replace free text with `[REDACTED_<KIND> len=N sha=…]`: such arguments are kept as
// text, not decoded. Unknown record types are skipped.
import type { FormatAdapter } from './adapter';
import type { SessionBuilder } from './builder';
import { HOSTED_CALLS, readCustomToolCall, readResponsesItem, statusSignal } from './openai-responses';
import type { TransportSignals } from '../model';
import type { Doc } from '../parse/doc';
import { isPlainObject, jsonValue, num, str, type Obj } from './util';

const RECORD_TYPES = new Set(['session_meta', 'turn_context', 'event_msg', 'response_item', 'compacted']);

function isEnvelope(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.timestamp === 'string' && typeof v.type === 'string' && 'payload' in v;
}

/** A sanitiser's stand-in for text that was removed. */
const REDACTED = /^\[REDACTED_[A-Z_]+ len=\d+ sha=[0-9a-f]+\]$/;

/** `{"output": ..., "metadata": {"exit_code": N}}` (older shell output), or a text whose header says the code. */
function outputExitCode(output: unknown): number | undefined {
  const v = jsonValue(output);
  if (isPlainObject(v) && isPlainObject(v.metadata)) return num(v.metadata.exit_code);
  if (typeof output !== 'string') return undefined;
  const head = output.split(/\nOutput:\r?\n/, 1)[0];
  const m = /^(?:Exit code: |Process exited with code )(-?\d+)\s*$/m.exec(head);
  return m ? Number(m[1]) : undefined;
}

/** What an event says of the call it names. */
function eventSignals(p: Obj): TransportSignals | undefined {
  switch (p.type) {
    case 'exec_command_end': {
      const code = num(p.exit_code);
      return code === undefined ? undefined : { exitCode: code };
    }
    case 'patch_apply_end':
      return typeof p.success === 'boolean' ? { isError: !p.success } : undefined;
    case 'mcp_tool_call_end': {
      const r = p.result;
      if (!isPlainObject(r)) return undefined;
      if ('Err' in r) return { isError: true };
      const ok = isPlainObject(r.Ok) ? r.Ok : undefined;
      const flag = ok?.isError ?? ok?.is_error;
      return typeof flag === 'boolean' ? { isError: flag } : { isError: false };
    }
    default:
      return undefined;
  }
}

class CodexReader {
  /** Signals of calls whose event came before their output. */
  private readonly signals = new Map<string, TransportSignals>();

  constructor(private readonly b: SessionBuilder) {}

  read(doc: Doc): void {
    const line = doc.value as Obj;
    const payload = line.payload;
    if (!isPlainObject(payload)) return;
    const b = this.b;
    if (line.type === 'session_meta') b.session.id ??= str(payload.id);
    else if (line.type === 'turn_context') b.breakTurn();
    else if (line.type === 'response_item') this.item(doc, payload);
    else if (line.type === 'event_msg') this.event(payload);
  }

  private event(p: Obj): void {
    const callId = str(p.call_id);
    const signals = eventSignals(p);
    if (callId === undefined || !signals) return;
    const results = this.b.session.results;
    for (let i = results.length - 1; i >= 0; i--) {
      if (results[i].callId === callId) {
        results[i].transport = { ...results[i].transport, ...signals };
        return;
      }
    }
    this.signals.set(callId, signals);
  }

  private item(doc: Doc, item: Obj): void {
    const b = this.b;
    const path = ['payload'];
    const callId = str(item.call_id);
    switch (item.type) {
      case 'function_call':
        if (typeof item.arguments === 'string' && REDACTED.test(item.arguments) && typeof item.name === 'string') {
          b.call({ name: item.name, id: callId, at: { doc, path }, namePath: ['name'], argsPath: ['arguments'], args: item.arguments, expect: 'string', freeform: true });
        } else readResponsesItem(b, doc, path, item);
        return;
      case 'custom_tool_call':
        readCustomToolCall(b, doc, path, item);
        return;
      case 'local_shell_call':
        b.call({ name: 'local_shell_call', id: callId ?? str(item.id), at: { doc, path }, namePath: ['type'], argsPath: ['action'],
          args: item.action, expect: 'object' });
        return;
      case 'web_search_call': {
        // a hosted tool: the search ran on the server, so the item is both the call and its (unrecorded) result;
        // older rollouts record no action, and it is read all the same (Codex runs one search per item)
        const search = HOSTED_CALLS.get('web_search_call')!;
        const call = b.call({ name: search.name, id: str(item.id), at: { doc, path }, namePath: ['type'], argsPath: ['action'], args: item.action, expect: 'object' });
        b.result({ at: { doc, path }, callIndex: call.index, transport: statusSignal(item.status, true) });
        return;
      }
      case 'function_call_output':
      case 'custom_tool_call_output':
      case 'local_shell_call_output': {
        const early = callId !== undefined ? this.signals.get(callId) : undefined;
        if (callId !== undefined) this.signals.delete(callId);
        const exitCode = outputExitCode(item.output);
        b.result({ at: { doc, path }, callId, payload: item.output, payloadPath: ['output'],
          transport: { ...(exitCode === undefined ? {} : { exitCode }), ...early } });
        b.breakTurn();
        return;
      }
      case 'reasoning':
        return;
      case 'message':
        // the model's own words are part of its response (commentary before its calls); input starts a new turn
        if (item.role === 'assistant') b.assistantText({ doc, path: [...path, 'content'] }, item.content, false);
        else b.breakTurn();
        return;
      default:
        b.breakTurn();
    }
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
    open({ builder }) {
      const reader = new CodexReader(builder);
      return { read: (doc) => reader.read(doc) };
    },
  },
};
