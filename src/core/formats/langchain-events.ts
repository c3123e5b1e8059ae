// LangChain's event stream: what `Runnable.astream_events()` yields (v1 and v2; a LangGraph graph's too), written
// one event per line, as a JSON array, or as the SSE body LangServe's `/stream_events` and the LangGraph API's
// `stream_mode="events"` send. Rules followed (langchain_core/runnables/schema.py StreamEvent,
// tracers/event_stream.py):
// - An event is `{event: "on_<kind>_<start|stream|end>", name, run_id, parent_ids, tags, metadata, data}`.
// - `on_chat_model_end`'s `data.output` is the model's whole AI message (langchain.ts reads its calls: the ids and
//   arguments the model sent); v1 wraps it in an LLMResult (`generations[][].message`). Its `_stream` chunks are
//   pieces of that message and are not read.
// - `on_tool_start` is a tool being run: `name` the tool, `data.input` its arguments (a string for a tool that takes
//   one text input: kept as that text). When the model's message asked for that tool and the call is not being run
//   yet, it is that call's execution; otherwise (a tool run without a chat model event: an AgentExecutor's, a tool
//   invoked directly) it is a call of its own.
// - `on_tool_end`'s `data.output` is the outcome, paired with its start by `run_id`: a ToolMessage (its
//   `tool_call_id`, its `status: "error"` when the tool raised and ToolNode caught it) or the tool's plain return.
//   `on_tool_error` (v1, and callback logs) is a failed run, its `data.error` the error.
import type { LineFormat, LineReader, LineSink, FormatAdapter } from './adapter';
import type { SessionBuilder } from './builder';
import { langChainFields, langChainType, readLangChainMessage } from './langchain';
import type { Doc, JsonPath } from '../parse/doc';
import { hasCallId, isPlainObject, str, type Obj } from './util';

type StreamEvent = Obj & { event: string; data: Obj };

function isEvent(v: unknown): v is StreamEvent {
  return isPlainObject(v) && typeof v.event === 'string' && v.event.startsWith('on_') && isPlainObject(v.data)
    && (typeof v.run_id === 'string' || typeof v.name === 'string');
}

/** The AI messages a chat model's end event holds, with their paths. */
function modelOutputs(e: StreamEvent): { path: JsonPath; m: unknown }[] {
  const out = e.data.output;
  if (langChainType(out) === 'ai' || langChainType(out) === 'AIMessageChunk') return [{ path: ['data', 'output'], m: out }];
  const gens = isPlainObject(out) && Array.isArray(out.generations) ? out.generations : [];
  return gens.flatMap((g, i) => (Array.isArray(g) ? g : []).flatMap((x, j) =>
    isPlainObject(x) && langChainType(x.message) !== undefined ? [{ path: ['data', 'output', 'generations', i, j, 'message'], m: x.message }] : []));
}

function claims(v: unknown): boolean {
  if (!isEvent(v)) return false;
  if (v.event === 'on_tool_start' || v.event === 'on_tool_end' || v.event === 'on_tool_error') return typeof v.name === 'string';
  return v.event === 'on_chat_model_end' && modelOutputs(v).some(({ m }) => {
    const f = langChainFields(m)?.value;
    return f !== undefined && ((Array.isArray(f.tool_calls) && f.tool_calls.length > 0)
      || (isPlainObject(f.additional_kwargs) && Array.isArray(f.additional_kwargs.tool_calls)));
  });
}

class EventReader implements LineReader {
  private readonly b: SessionBuilder;
  /** Calls the model asked for that no tool run has taken yet, in order. */
  private asked: number[] = [];
  /** Per running tool's `run_id`, the call it runs. */
  private readonly running = new Map<string, number>();
  private lastWasStart = false;
  private turn?: number;

  constructor(sink: LineSink) {
    this.b = sink.builder;
  }

  read(doc: Doc): void {
    const e = doc.value;
    if (!isEvent(e)) return;
    const runId = str(e.run_id);
    if (e.event === 'on_chat_model_end') {
      for (const { path, m } of modelOutputs(e)) {
        const from = this.b.session.calls.length;
        readLangChainMessage(this.b, doc, path, m);
        for (let i = from; i < this.b.session.calls.length; i++) this.asked.push(i);
      }
      this.lastWasStart = false;
    } else if (e.event === 'on_tool_start' && typeof e.name === 'string') {
      this.start(doc, e, e.name, runId);
    } else if ((e.event === 'on_tool_end' || e.event === 'on_tool_error') && typeof e.name === 'string') {
      this.end(doc, e, runId);
    }
  }

  private start(doc: Doc, e: StreamEvent, name: string, runId: string | undefined): void {
    const k = this.asked.findIndex((i) => this.b.session.calls[i].name === name);
    let index: number;
    if (k >= 0) {
      index = this.asked[k];
      this.asked.splice(k, 1);
    } else {
      if (!this.lastWasStart || this.turn === undefined) this.turn = this.b.newTurn();
      const input = e.data.input;
      index = this.b.call({ name, at: { doc, path: [] }, namePath: ['name'], argsPath: ['data', 'input'], args: input, expect: 'any',
        freeform: typeof input === 'string' }, this.turn).index;
    }
    if (runId !== undefined) this.running.set(runId, index);
    this.lastWasStart = true;
  }

  private end(doc: Doc, e: StreamEvent, runId: string | undefined): void {
    this.lastWasStart = false;
    const callIndex = runId !== undefined ? this.running.get(runId) : undefined;
    if (runId !== undefined) this.running.delete(runId);
    if (e.event === 'on_tool_error') {
      this.b.result({ at: { doc, path: [] }, callIndex, payload: e.data.error, payloadPath: ['data', 'error'], transport: { isError: true } });
      return;
    }
    const out = e.data.output;
    const f = langChainType(out) === 'tool' ? langChainFields(out) : undefined;
    if (f) {
      const id = str(f.value.tool_call_id);
      const status = str(f.value.status);
      const known = id !== undefined && hasCallId(this.b, id);
      this.b.result({ at: { doc, path: ['data', 'output', ...f.path] }, callId: known ? id : undefined, callIndex: known ? undefined : callIndex,
        payload: f.value.content, payloadPath: ['content'], transport: status === 'error' ? { isError: true } : status === 'success' ? { isError: false } : {} });
      return;
    }
    this.b.result({ at: { doc, path: [] }, callIndex, payload: out, payloadPath: ['data', 'output'] });
  }
}

const lines: LineFormat = {
  claims,
  accepts: isEvent,
  open: (sink) => new EventReader(sink),
};

export const langchainEvents: FormatAdapter = {
  id: 'langchain-events',
  lines,
};
