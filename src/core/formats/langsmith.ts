// LangSmith runs: the payload the SDK ingests (`{post: [runs], patch: [runs]}`; a run split over post and patch, merged
// by id — the JS SDK's patch carries no id, only the `dotted_order` that ends with it), or an exported list of runs
// (with nested `child_runs`), or one run with its tree. Runs are ordered by `dotted_order` (else start time); each trace id is a session. LLM
// runs make calls: outputs that are a Chat completion (`choices`), a Responses object (`output` items), an Anthropic
// message, or LangChain generations (`generations[][].message`, serialized or not: `additional_kwargs.tool_calls` as
// the provider wrote them, else LangChain's `tool_calls` `{name, args, id}`). `tool` runs are executions: the answer
// to the call whose id their output ToolMessage names (`tool_call_id`), else to the earliest unanswered call of their
// name, else a call (`inputs`) and its result. A run's `error`, or a ToolMessage with `status: "error"`, is an honest
// failure; a tool run without one says it succeeded. The payload is `outputs.output` (a ToolMessage's `content`).
import type { FormatAdapter } from './adapter';
import { readAnthropicMessage } from './anthropic';
import type { SessionBuilder } from './builder';
import { readChatMessage, isChatMessage } from './openai-chat';
import { readResponsesItem } from './openai-responses';
import type { Doc, JsonPath } from '../parse/doc';
import { langChainFields, readLangChainCalls } from './langchain';
import { isPlainObject, keyText, ownsErrorFlag, SessionSet, str, timeOf, unansweredByName, waitingFor, type Obj } from './util';

/** The run id a `dotted_order` ends with (`...Z<run id>`). */
function idOfOrder(order: unknown): string | undefined {
  if (typeof order !== 'string') return undefined;
  const last = order.slice(order.lastIndexOf('.') + 1);
  const z = last.indexOf('Z');
  return z >= 0 && z < last.length - 1 ? last.slice(z + 1) : undefined;
}

function runKey(v: Obj): string | undefined {
  return str(v.id) ?? idOfOrder(v.dotted_order);
}

function isRun(v: unknown): v is Obj {
  return isPlainObject(v) && runKey(v) !== undefined && ('run_type' in v || 'dotted_order' in v || 'trace_id' in v);
}

function isIngest(v: unknown): v is Obj {
  if (!isPlainObject(v)) return false;
  const lists = ['post', 'patch'].filter((k) => k in v);
  return lists.length > 0 && lists.every((k) => Array.isArray(v[k]) && v[k].every(isRun)) && lists.some((k) => (v[k] as unknown[]).length > 0);
}

/** One exported run with its tree (`read_run(..., load_child_runs=True)`): a typed run holding `child_runs`. */
function isRunTree(v: unknown): v is Obj & { child_runs: unknown[] } {
  return isRun(v) && typeof v.run_type === 'string' && Array.isArray(v.child_runs) && v.child_runs.length > 0 && v.child_runs.every(isRun);
}

/** An exported list of runs: every element a run with its type and trace. */
function isRunList(v: unknown): v is Obj[] {
  return Array.isArray(v) && v.length > 0 && v.every((r) => isRun(r) && typeof r.run_type === 'string' && typeof r.id === 'string' && ('trace_id' in r || 'dotted_order' in r || 'child_runs' in r));
}

interface Part {
  run: Obj;
  path: JsonPath;
}

/** The calls an LLM run's outputs hold. */
function readOutputs(b: SessionBuilder, doc: Doc, path: JsonPath, out: Obj): void {
  if (Array.isArray(out.choices)) {
    out.choices.forEach((c, i) => {
      if (isPlainObject(c) && isChatMessage(c.message)) readChatMessage(b, doc, [...path, 'choices', i, 'message'], c.message);
    });
    return;
  }
  if (Array.isArray(out.output)) {
    let turn: number | undefined;
    out.output.forEach((item, i) => {
      if (!isPlainObject(item) || item.type !== 'function_call') return;
      turn ??= b.newTurn();
      readResponsesItem(b, doc, [...path, 'output', i], item);
    });
    b.breakTurn();
    return;
  }
  if (Array.isArray(out.content) && out.role === 'assistant') {
    readAnthropicMessage(b, doc, path, out);
    return;
  }
  if (Array.isArray(out.generations)) {
    out.generations.forEach((g, i) => {
      const gens = Array.isArray(g) ? g.map((x, j) => ({ x, p: [i, j] })) : [{ x: g, p: [i] }];
      for (const { x, p } of gens) {
        const m = isPlainObject(x) ? langChainFields(x.message) : undefined;
        if (!m) continue;
        const at = [...path, 'generations', ...p, 'message', ...m.path];
        if (readLangChainCalls(b, doc, at, m.value) === 0) b.assistantText({ doc, path: [...at, 'content'] }, m.value.content);
      }
    });
  }
}

/** The tool run's output: a ToolMessage (its call id, status and content), or the value the tool returned. */
function toolOutput(outputs: Obj | undefined, path: JsonPath): { id?: string; failed: boolean; payload: unknown; payloadPath: JsonPath } | undefined {
  if (!outputs) return undefined;
  if (!('output' in outputs) || Object.keys(outputs).length !== 1) return { failed: false, payload: outputs, payloadPath: [...path, 'outputs'] };
  const m = langChainFields(outputs.output);
  const fields = m?.value;
  if (fields && typeof fields.tool_call_id === 'string' && 'content' in fields) {
    return { id: fields.tool_call_id, failed: fields.status === 'error', payload: fields.content, payloadPath: [...path, 'outputs', 'output', ...m.path, 'content'] };
  }
  return { failed: false, payload: outputs.output, payloadPath: [...path, 'outputs', 'output'] };
}

function readToolRun(b: SessionBuilder, doc: Doc, parts: Part[]): void {
  const name = parts.map((p) => str(p.run.name)).find((n) => n !== undefined) ?? 'tool';
  const inputs = parts.find((p) => 'inputs' in p.run);
  const error = parts.find((p) => typeof p.run.error === 'string' && p.run.error !== '');
  const outputs = parts.find((p) => isPlainObject(p.run.outputs) && Object.keys(p.run.outputs).length > 0);
  const out = outputs ? toolOutput(outputs.run.outputs as Obj, outputs.path) : undefined;
  const byId = out?.id !== undefined && waitingFor(b, out.id) ? out.id : undefined;
  let callIndex = byId === undefined ? unansweredByName(b, name) : undefined;
  if (byId === undefined && callIndex === undefined) {
    callIndex = b.call({ name, id: out?.id, at: { doc, path: inputs?.path ?? parts[0].path }, namePath: inputs && 'name' in inputs.run ? ['name'] : [],
      argsPath: ['inputs'], args: inputs?.run.inputs, expect: 'object' }, b.newTurn()).index;
  }
  const callId = byId ?? (callIndex !== undefined ? b.session.calls[callIndex].id : undefined);
  const at = error ?? outputs ?? parts[0];
  b.result({ at: { doc, path: at.path }, callId, callIndex: callId === undefined ? callIndex : undefined,
    payload: error ? error.run.error : out?.payload, payloadPath: error ? ['error'] : out ? out.payloadPath.slice(at.path.length) : undefined,
    transport: error !== undefined || out?.failed === true ? { isError: true } : ownsErrorFlag(out?.payload) ? {} : { isError: false } });
  b.breakTurn();
}

const MAX_DEPTH = 32;

/** Every run of an exported list, nested `child_runs` included, with its path. */
function flatten(list: unknown[], path: JsonPath, out: Part[], depth = 0): void {
  list.forEach((run, i) => {
    if (!isRun(run)) return;
    out.push({ run, path: [...path, i] });
    if (Array.isArray(run.child_runs) && depth < MAX_DEPTH) flatten(run.child_runs, [...path, i, 'child_runs'], out, depth + 1);
  });
}

function orderOf(parts: Part[]): string {
  const order = parts.map((p) => p.run.dotted_order).find((o) => typeof o === 'string');
  if (typeof order === 'string') return order;
  const t = timeOf(parts.map((p) => p.run.start_time).find((x) => x !== undefined));
  return Number.isNaN(t) ? '' : String(t).padStart(16, '0');
}

export const langsmith: FormatAdapter = {
  id: 'langsmith',
  document: {
    claims(v) {
      return isIngest(v) || isRunList(v) || isRunTree(v);
    },
    read(doc, emit) {
      const v = doc.value;
      const all: Part[] = [];
      if (Array.isArray(v)) flatten(v, [], all);
      else if (isRunTree(v)) {
        all.push({ run: v, path: [] });
        flatten(v.child_runs, ['child_runs'], all, 1);
      }
      // ingested runs are flat (their child_runs are sent as runs of their own)
      else for (const key of ['post', 'patch']) if (Array.isArray((v as Obj)[key])) flatten((v as Obj)[key] as unknown[], [key], all, MAX_DEPTH);
      const byId = new Map<string, Part[]>();
      for (const part of all) {
        const key = runKey(part.run)!;
        const parts = byId.get(key) ?? [];
        parts.push(part);
        byId.set(key, parts);
      }
      const runs = [...byId.values()].map((parts) => ({ parts, order: orderOf(parts) })).sort((a, b) => keyText(a.order).localeCompare(keyText(b.order))).map((r) => r.parts);
      const sessions = new SessionSet();
      for (const parts of runs) {
        const b = sessions.get(parts.map((p) => str(p.run.trace_id)).find((t) => t !== undefined) ?? '');
        const type = parts.map((p) => str(p.run.run_type)).find((t) => t !== undefined);
        if (type === 'tool') {
          readToolRun(b, doc, parts);
          continue;
        }
        const outputs = parts.find((p) => isPlainObject(p.run.outputs) && Object.keys(p.run.outputs).length > 0);
        if (outputs && (type === 'llm' || type === undefined)) readOutputs(b, doc, [...outputs.path, 'outputs'], outputs.run.outputs as Obj);
      }
      sessions.emitAll(emit);
    },
  },
};
