// The tool definition recorded in the trace is not the one the workspace contract holds for that tool.
import type { Check } from './check';
import { isPlainObject, type Obj } from '../objects';


// Prose does not change behaviour: two schemas that differ only in these keys are the same contract.
function isProse(k: string): boolean {
  return k === 'description' || k === 'title' || k === 'examples' || k === '$comment' || k === '$schema' || k === '$id';
}

/** JSON with sorted keys and without prose, so that equal contracts compare equal. */
export function canonicalSchema(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalSchema).join(',')}]`;
  if (isPlainObject(v)) {
    const keys = Object.keys(v).filter((k) => !isProse(k)).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalSchema(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** Equal contracts, ignoring prose and key order: a walk of both values that stops at the first difference and
 *  allocates nothing (run for every recorded tool of every session, so it must be cheap). */
function sameSchema(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameSchema(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Obj;
  const bo = b as Obj;
  let count = 0;
  for (const k in ao) {
    if (isProse(k)) continue;
    const bv = bo[k];
    if ((bv === undefined && !(k in bo)) || !sameSchema(ao[k], bv)) return false;
    count++;
  }
  for (const k in bo) if (!isProse(k)) count--;
  return count === 0;
}

/** A short account of how two argument schemas differ, for the message. */
function summarize(recorded: unknown, workspace: unknown): string {
  const rp = isPlainObject(recorded) && isPlainObject(recorded.properties) ? recorded.properties : {};
  const wp = isPlainObject(workspace) && isPlainObject(workspace.properties) ? workspace.properties : {};
  const parts: string[] = [];
  const added = Object.keys(rp).filter((k) => !(k in wp));
  const removed = Object.keys(wp).filter((k) => !(k in rp));
  const changed = Object.keys(rp).filter((k) => k in wp && canonicalSchema(rp[k]) !== canonicalSchema(wp[k]));
  if (added.length) parts.push(`adds ${added.join(', ')}`);
  if (removed.length) parts.push(`lacks ${removed.join(', ')}`);
  if (changed.length) parts.push(`changes ${changed.join(', ')}`);
  // sorted as text: a trace's `required` may hold objects (with a "toString" key the default sort would call)
  const req = (s: unknown) => canonicalSchema(isPlainObject(s) && Array.isArray(s.required) ? s.required.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).sort() : []);
  if (req(recorded) !== req(workspace)) parts.push('requires different keys');
  return parts.length ? parts.join('; ') : 'differs in its other keywords';
}

export const schemaDrift: Check = {
  code: 'schema-drift',
  severity: 'warning',
  title: 'The tool definition in the trace differs from the workspace contract',
  description: 'The trace recorded the tool definitions the model was given (request `tools`, MCP `tools/list`, ...). The workspace contract for the same tool says something else, so the model was held to a different contract than the one you check. Descriptions and titles are ignored.',
  example: { input: '{"messages": [...], "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"properties": {"city": {}, "lang": {}}}}}]}', message: 'get_weather recorded in the trace differs from contracts/weather.contract.json: adds lang' },
  run(ctx) {
    // a segment holds every definition so far: those an earlier segment compared are not compared again
    const state = ctx.state('schema-drift', () => ({ done: 0 }));
    const tools = ctx.session.tools;
    const from = state.done;
    state.done = tools.length;
    for (let k = from; k < tools.length; k++) {
      const tool = tools[k];
      const ws = ctx.contracts.tools.get(tool.name);
      if (!ws || ws.arguments === undefined) continue;
      if (sameSchema(tool.inputSchema, ws.arguments)) continue;
      ctx.report({
        code: 'schema-drift',
        message: `${tool.name} recorded in the trace differs from ${ws.file ?? 'the workspace contract'}: ${summarize(tool.inputSchema, ws.arguments)}`,
        at: tool.at,
      });
    }
  },
};
