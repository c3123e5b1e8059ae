// The room that does not exist: an argument the contract says must come from an earlier tool's results, whose
// value no earlier result in the session offered.
import type { ArgumentSource, ToolContract } from '../contracts/types';
import type { Span, ToolCall } from '../model';
import { spanOf, type Anchor } from '../parse/doc';
import { brief } from '../results';
import type { Check, SessionContext } from './check';
import { isPlainObject } from '../objects';

const MAX_DEPTH = 8;

/** What the results of one source tool offered for one field: scalar values, and texts for plain-text results. */
interface Offered {
  values: Set<string>;
  texts: string[];
  results: number;
  /** Where the last source result is, for related information (an anchor while its segment is checked, then a
   *  span). */
  lastAt?: Anchor;
  lastSpan?: Span;
  /** What the last source result offered (its values, or whether it was text), for related information. */
  lastGot?: Set<string>;
  lastWasText?: boolean;
}

/** Values (and characters of text) one (tool, field) pair keeps across the segments of a long session at most. */
export const MAX_OFFERED = 100_000;
const MAX_TEXT = 4_000_000;

/** The (source tool, field) pairs the calls of tool `name` need (in a whole session asked for the tools it calls;
 *  in a segment of a long one, whose later calls are unknown yet, for every contract in reach that names sources). */
function sourcesNeeded(ctx: SessionContext, name: string, needs: Map<string, Map<string, Offered>>): void {
  const sources = sourcesOf(ctx.pairing.contract(name));
  if (!sources) return;
  for (const [arg, src] of sources) {
    const byField = needs.get(src.tool) ?? new Map<string, Offered>();
    byField.set(src.field ?? arg, byField.get(src.field ?? arg) ?? { values: new Set(), texts: [], results: 0 });
    needs.set(src.tool, byField);
  }
}

function contractNames(ctx: SessionContext): Set<string> {
  const names = new Set<string>(ctx.contracts.tools.keys());
  for (const t of ctx.session.tools) names.add(t.name);
  if (ctx.packs) for (const n of ctx.packs.tools.keys()) names.add(n);
  for (const c of ctx.session.calls) names.add(c.name);
  return names;
}

function scalarsInto(v: unknown, out: Set<string>, depth = 0): void {
  if (depth > MAX_DEPTH || v === null || v === undefined) return;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out.add(String(v));
  else if (Array.isArray(v)) for (const x of v) scalarsInto(x, out, depth + 1);
  else if (isPlainObject(v)) for (const k in v) scalarsInto(v[k], out, depth + 1);
}

/** The values under `field` anywhere in the body; false when the body has no such key. */
function fieldValuesInto(v: unknown, field: string, out: Set<string>, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  let found = false;
  if (Array.isArray(v)) for (const x of v) found = fieldValuesInto(x, field, out, depth + 1) || found;
  else if (isPlainObject(v)) {
    for (const k in v) {
      if (k === field) {
        scalarsInto(v[k], out);
        found = true;
      } else found = fieldValuesInto(v[k], field, out, depth + 1) || found;
    }
  }
  return found;
}

function scalarValues(v: unknown): string[] | undefined {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return [String(v)];
  if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string' || typeof x === 'number')) return v.map(String);
  return undefined;
}

const entries = new WeakMap<ToolContract, [string, ArgumentSource][]>();

/** A contract's argument sources as a list, made once per contract. */
function sourcesOf(contract: ToolContract | undefined): [string, ArgumentSource][] | undefined {
  const sources = contract?.argumentSources;
  if (!sources) return undefined;
  let list = entries.get(contract);
  if (!list) entries.set(contract, (list = Object.entries(sources)));
  return list;
}

function said(o: Offered): string {
  if (o.lastGot && o.lastGot.size) return `offered ${brief([...o.lastGot].slice(0, 6).join(', '), 60)}`;
  return o.lastWasText ? 'offered only text' : 'offered no values';
}

export const assumedValue: Check = {
  code: 'assumed-value',
  severity: 'warning',
  gate: 'keys',
  title: 'An argument that should come from an earlier result, and did not',
  description: 'A contract can say where an argument\'s value must come from: `argumentSources: {"room_id": {"tool": "list_rooms", "field": "rooms"}}`. A call whose value for that argument no earlier result of that tool in the session offered (under `field` anywhere in the result, default the argument\'s own name; the whole result when it has no such key; the text of a plain-text result) was assumed, not looked up: the room that does not exist. Failed source results offer nothing. A value that already breaks the schema (`type-drift`, `constraint`) gets only that finding.',
  example: { input: 'list_rooms -> {"rooms": ["KILLAM-212", "MCD-17"]}, then book_room {"room_id": "CS-130", ...}', message: 'book_room.room_id CS-130 was not in the last list_rooms result' },
  run(ctx) {
    const { calls, results } = ctx.session;
    const pairing = ctx.pairing;
    // Which (source tool, field) pairs any called tool needs; most sessions need none and stop here.
    const state = ctx.state('assumed-value', () => ({ needs: undefined as Map<string, Map<string, Offered>> | undefined }));
    let needs = state.needs;
    // (names are asked one at a time: no list of them per session)
    if (!needs) {
      needs = new Map<string, Map<string, Offered>>();
      if (ctx.whole) for (const c of calls) sourcesNeeded(ctx, c.name, needs);
      else for (const name of contractNames(ctx)) sourcesNeeded(ctx, name, needs);
      if (!ctx.whole) state.needs = needs;
    } else for (const c of calls) sourcesNeeded(ctx, c.name, needs); // a tool defined later in the trace
    if (needs.size === 0) return;
    let next = 0;
    for (const call of calls) {
      while (next < results.length && results[next].turn < call.turn) offer(next++);
      const sources = sourcesOf(pairing.contract(call.name));
      if (sources) for (const [arg, src] of sources) check(call, arg, src);
    }
    while (!ctx.final && next < results.length) offer(next++);
    if (!ctx.final) carry();

    /** The end of a segment: the last source results are kept as places, and the values offered are capped. */
    function carry(): void {
      for (const byField of needs!.values()) {
        for (const o of byField.values()) {
          if (o.lastAt) {
            o.lastSpan = spanOf(o.lastAt);
            o.lastAt = undefined;
          }
          let chars = 0;
          for (const t of o.texts) chars += t.length;
          if (o.values.size > MAX_OFFERED || chars > MAX_TEXT) {
            ctx.limit(`assumed-value: more than ${MAX_OFFERED} values offered for one argument; the oldest are forgotten`);
            for (const v of o.values) {
              if (o.values.size <= MAX_OFFERED) break;
              o.values.delete(v);
            }
            while (chars > MAX_TEXT && o.texts.length) chars -= o.texts.shift()!.length;
          }
        }
      }
    }

    function offer(i: number): void {
      const source = pairing.callOf(i);
      const byField = source && needs!.get(source.name);
      if (!source || !byField) return;
      if (pairing.failed(i)) return;
      const reading = pairing.fullReading(i);
      for (const [field, offered] of byField) {
        const got = new Set<string>();
        if (typeof reading.body === 'string' || reading.body === undefined) {
          if (reading.text) offered.texts.push(reading.text);
        } else if (!fieldValuesInto(reading.body, field, got)) scalarsInto(reading.body, got);
        for (const v of got) offered.values.add(v);
        offered.results++;
        offered.lastAt = results[i].at;
        offered.lastSpan = undefined;
        offered.lastGot = got;
        offered.lastWasText = reading.text !== undefined;
      }
    }

    function check(call: ToolCall, arg: string, src: ArgumentSource): void {
      const args = pairing.args(call);
      if (!isPlainObject(args) || !(arg in args)) return;
      const values = scalarValues(args[arg]);
      if (!values) return;
      if (ctx.schemaFaults(call).some((f) => f.path.length >= 1 && f.path[0] === arg)) return; // one finding per fault
      const offered = needs!.get(src.tool)!.get(src.field ?? arg)!;
      const missing = values.filter((v) => !offered.values.has(v) && !offered.texts.some((t) => v.length >= 2 && t.includes(v)));
      if (missing.length === 0) return;
      const what = `${call.name}.${arg} ${missing.join(', ')}`;
      const message = offered.results === 0
        ? `${what} did not come from ${src.tool}: no ${src.tool} result precedes it`
        : `${what} was not in ${offered.results === 1 ? 'the last' : `any of the ${offered.results} earlier`} ${src.tool} result${offered.results === 1 ? '' : 's'}`;
      const about = `the last ${src.tool} result ${said(offered)}`;
      ctx.report({
        code: 'assumed-value',
        message,
        at: ctx.argAnchor(call, [arg]),
        call,
        related: offered.lastAt ? [{ at: offered.lastAt, message: about }] : offered.lastSpan ? [{ span: offered.lastSpan, message: about }] : undefined,
      });
    }
  },
};
