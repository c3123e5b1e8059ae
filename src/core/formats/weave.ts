// W&B Weave calls, as `client.get_calls()` exports them (a JSON list, or JSONL, one call per line): `{id, op_name:
// "weave:///<entity>/<project>/op/<name>:<digest>", trace_id, parent_id, started_at, ended_at, inputs, output,
// exception}`. A model op's call (the integrations trace `openai.chat.completions.create`, `anthropic.Messages.create`,
// ...) makes the tool calls its output holds (a Chat completion's `choices`, an Anthropic message's `tool_use`
// blocks); its `inputs.tools` are their definitions. Another op's call is a tool's execution when it answers the
// earliest unanswered call of its op's name: its `output` is the result and a non-empty `exception` the failure
// flag. Ops that answer no call (the agent loop, a predict function) are not tools: not read. One session per
// `trace_id`, calls in start order.
import { readAsLines, type FormatAdapter, type LineFormat } from './adapter';
import { readAnthropicMessage, readAnthropicTools } from './anthropic';
import type { SessionBuilder } from './builder';
import { isChatMessage, readChatMessage, readChatTools } from './openai-chat';
import { nodeDoc, type Doc, type JsonPath } from '../parse/doc';
import { byTime, isPlainObject, str, unansweredByName, type Obj } from './util';

const OP = /^weave:\/\/\/[^/]+\/[^/]+\/op\/(.+?)(?::[^:/]*)?$/;

function isCall(v: unknown): v is Obj & { op_name: string } {
  return isPlainObject(v) && typeof v.op_name === 'string' && OP.test(v.op_name) && 'trace_id' in v && 'inputs' in v;
}

/** The op's own name: `openai.chat.completions.create`, `get_weather`. */
function opName(call: Obj): string {
  return OP.exec(call.op_name as string)?.[1] ?? (call.op_name as string);
}

/** A model op's output: the calls it made. Returns whether it was a model's answer. */
function readModelOutput(b: SessionBuilder, doc: Doc, path: JsonPath, call: Obj): boolean {
  const out = call.output;
  if (!isPlainObject(out)) return false;
  const inputs = isPlainObject(call.inputs) ? call.inputs : {};
  if (Array.isArray(out.choices)) {
    readChatTools(b, doc, [...path, 'inputs', 'tools'], inputs.tools);
    out.choices.forEach((c, i) => {
      if (isPlainObject(c) && isChatMessage(c.message)) readChatMessage(b, doc, [...path, 'output', 'choices', i, 'message'], c.message);
    });
    return true;
  }
  if (out.role === 'assistant' && Array.isArray(out.content)) {
    readAnthropicTools(b, doc, [...path, 'inputs', 'tools'], inputs.tools);
    readAnthropicMessage(b, doc, [...path, 'output'], out);
    return true;
  }
  return false;
}

function readTrace(b: SessionBuilder, calls: Doc[]): void {
  for (const doc of byTime(calls, (d) => (d.value as Obj).started_at)) {
    const call = doc.value as Obj;
    if (readModelOutput(b, doc, [], call)) continue;
    const name = opName(call);
    const callIndex = unansweredByName(b, name) ?? unansweredByName(b, name.slice(name.lastIndexOf('.') + 1));
    if (callIndex === undefined) continue;
    const failed = typeof call.exception === 'string' && call.exception !== '';
    const id = b.session.calls[callIndex].id;
    b.result({ at: { doc, path: [] }, callId: id, callIndex: id === undefined ? callIndex : undefined,
      payload: failed ? call.exception : call.output, payloadPath: [failed ? 'exception' : 'output'], transport: { isError: failed } });
    b.breakTurn();
  }
}

/** Calls arrive in any order (a trace's children end before it): kept per trace, read when the file ends. */
const callLines: LineFormat = {
  claims: isCall,
  open(sink) {
    const byTrace = new Map<string, Doc[]>();
    return {
      read(doc) {
        if (!isCall(doc.value)) return;
        const key = str(doc.value.trace_id) ?? '';
        const docs = byTrace.get(key);
        if (docs) docs.push(doc);
        else byTrace.set(key, [doc]);
      },
      finish() {
        for (const [key, docs] of byTrace) readTrace(sink.sessionFor(key), docs);
      },
    };
  },
};

export const weave: FormatAdapter = {
  id: 'weave',
  lines: callLines,
  document: {
    claims(v) {
      return Array.isArray(v) && v.length > 0 && v.every(isCall);
    },
    read(doc, emit) {
      readAsLines(callLines, (doc.value as unknown[]).map((c, i) => nodeDoc(doc, [i], c)), emit);
    },
  },
};
