// A starter contract from the calls a trace shows: per tool, the JSON type of each argument (nested objects and
// array items too), `required` for the keys present in every call, `additionalProperties: false`, and an enum
// only where a string argument took few values that repeat. Written in Contract Guard's own format with a
// reviewable layout (short lists on one line, tools by name, arguments in the order first seen). It states
// what was seen, not what is allowed: a person reviews it before it becomes the contract.
import type { Session, ToolCall } from '../model';

/** Strings with at most this many distinct values (each seen twice on average) become an enum. */
export const MAX_ENUM = 5;

type Schema = Record<string, unknown>;

/** What was seen at one place of the arguments, over all calls. */
interface Seen {
  count: number;
  types: Map<string, number>;
  strings: Map<string, number>;
  manyStrings: boolean;
  props?: Map<string, Seen>;
  objects: number;
  items?: Seen;
}

const fresh = (): Seen => ({ count: 0, types: new Map(), strings: new Map(), manyStrings: false, objects: 0 });

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function observe(seen: Seen, v: unknown, depth = 0): void {
  seen.count++;
  const t = jsonType(v);
  seen.types.set(t, (seen.types.get(t) ?? 0) + 1);
  if (depth > 32) return;
  if (t === 'string' && !seen.manyStrings) {
    seen.strings.set(v as string, (seen.strings.get(v as string) ?? 0) + 1);
    if (seen.strings.size > MAX_ENUM) seen.manyStrings = true;
  } else if (t === 'object') {
    seen.objects++;
    seen.props ??= new Map();
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      let s = seen.props.get(k);
      if (!s) seen.props.set(k, (s = fresh()));
      observe(s, x, depth + 1);
    }
  } else if (t === 'array') {
    for (const x of v as unknown[]) observe((seen.items ??= fresh()), x, depth + 1);
  }
}

function schemaOf(seen: Seen): Schema {
  let types = [...seen.types.keys()];
  // An integer where other calls sent fractions is a number.
  if (types.includes('integer') && types.includes('number')) types = types.filter((t) => t !== 'integer');
  const s: Schema = { type: types.length === 1 ? types[0] : types.sort() };
  if (types.length === 1 && types[0] === 'string' && !seen.manyStrings) {
    const values = [...seen.strings.keys()];
    const total = [...seen.strings.values()].reduce((a, b) => a + b, 0);
    if (values.length > 0 && total >= 2 * values.length) s.enum = values.sort();
  }
  if (types.includes('object') && seen.props) {
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const [k, p] of seen.props) {
      properties[k] = schemaOf(p);
      if (p.count === seen.objects) required.push(k);
    }
    s.properties = properties;
    if (required.length) s.required = required;
    s.additionalProperties = false;
  } else if (types.includes('object')) {
    s.properties = {};
    s.additionalProperties = false;
  }
  if (types.includes('array') && seen.items) s.items = schemaOf(seen.items);
  return s;
}

export interface InferredContract {
  /** The contract file's value, in Contract Guard's format. */
  value: { version: 1; description: string; tools: Record<string, { description: string; arguments: Schema }> };
  /** Calls used, per tool. */
  calls: Map<string, number>;
  /** Calls left out: their arguments were not a JSON object (invalid, free-form, not an object). */
  skipped: number;
}

/** Infer a contract from calls (or from the sessions that hold them). */
export function inferContract(input: Iterable<ToolCall> | Session[], origin = 'the traces'): InferredContract {
  const calls: Iterable<ToolCall> = Array.isArray(input) && input.length && 'calls' in (input[0] as object) ? input.flatMap((s) => s.calls) : (input as Iterable<ToolCall>);
  const byTool = new Map<string, Seen>();
  const counts = new Map<string, number>();
  let skipped = 0;
  for (const call of calls) {
    const a = call.args;
    if (call.encoding === 'invalid' || call.encoding === 'freeform' || call.encoding === 'non-object' || typeof a !== 'object' || a === null || Array.isArray(a)) {
      if (call.encoding !== 'absent') {
        skipped++;
        continue;
      }
    }
    let seen = byTool.get(call.name);
    if (!seen) byTool.set(call.name, (seen = fresh()));
    observe(seen, a ?? {});
    counts.set(call.name, (counts.get(call.name) ?? 0) + 1);
  }
  const tools: InferredContract['value']['tools'] = {};
  for (const name of [...byTool.keys()].sort()) {
    const n = counts.get(name)!;
    tools[name] = { description: `Inferred from ${n} call${n === 1 ? '' : 's'}: review the types, required keys and enums.`, arguments: schemaOf(byTool.get(name)!) };
  }
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  return {
    value: { version: 1, description: `Starter contract inferred by contract-guard from ${total} call${total === 1 ? '' : 's'} in ${origin}.`, tools },
    calls: counts,
    skipped,
  };
}

/** JSON with two-space indents, where arrays of plain values (enum, required, type lists) and small schemas of
 *  plain values stay on one line. */
export function renderContract(value: unknown): string {
  const out = (v: unknown, indent: string): string => {
    if (Array.isArray(v)) {
      if (v.every((x) => x === null || typeof x !== 'object')) return '[' + v.map((x) => JSON.stringify(x)).join(', ') + ']';
      const inner = indent + '  ';
      return '[\n' + v.map((x) => inner + out(x, inner)).join(',\n') + '\n' + indent + ']';
    }
    if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>);
      if (!entries.length) return '{}';
      // A small schema of plain values (`{"type": "string"}`) reads best on one line.
      if (entries.every(([, x]) => x === null || typeof x !== 'object' || (Array.isArray(x) && x.every((y) => y === null || typeof y !== 'object')))) {
        const line = '{' + entries.map(([k, x]) => JSON.stringify(k) + ': ' + out(x, indent)).join(', ') + '}';
        if (line.length + indent.length <= 100) return line;
      }
      const inner = indent + '  ';
      return '{\n' + entries.map(([k, x]) => inner + JSON.stringify(k) + ': ' + out(x, inner)).join(',\n') + '\n' + indent + '}';
    }
    return JSON.stringify(v);
  };
  return out(value, '') + '\n';
}
