// One ajv pass per call, shared by the checks that report its parts (missing-key, extra-key, type-drift,
// constraint). Errors are sorted into codes here, once, so that one fault gives one finding.
import type { ErrorObject } from 'ajv';
import { compileSchema, INTEGER_LEXEME, validateWithLexemes, type Profile } from '../contracts/compile';
import { childPath, joinPath, mayHoldNonInteger, nonIntegerLexeme, type Doc, type JsonPath } from '../parse/doc';

export type SchemaFaultCode = 'missing-key' | 'extra-key' | 'type-drift' | 'constraint';

export interface SchemaFault {
  code: SchemaFaultCode;
  /** Path from the arguments object to the value (or the object lacking a key). */
  path: JsonPath;
  /** Points at the key rather than the value (extra-key). */
  onKey?: boolean;
  /** The key that is missing (missing-key) or not declared (extra-key). */
  key?: string;
  message: string;
}

export function decodePointer(pointer: string, root: unknown): JsonPath {
  if (!pointer) return [];
  const out: JsonPath = [];
  let node: unknown = root;
  const escaped = pointer.includes('~');
  for (const raw of pointer.slice(1).split('/')) {
    const seg = escaped ? raw.replace(/~1/g, '/').replace(/~0/g, '~') : raw;
    if (Array.isArray(node)) {
      const i = Number(seg);
      out.push(i);
      node = node[i];
    } else {
      out.push(seg);
      node = node && typeof node === 'object' ? (node as Record<string, unknown>)[seg] : undefined;
    }
  }
  return out;
}

/** `slots[0].start` style, for messages. */
export function displayPath(path: JsonPath): string {
  let s = '';
  for (const seg of path) s += typeof seg === 'number' ? `[${seg}]` : s ? `.${seg}` : seg;
  return s || '(arguments)';
}

export function describeValue(value: unknown, lexeme?: string): string {
  const kind = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  const shown = lexeme ?? JSON.stringify(value) ?? String(value);
  const short = shown.length > 40 ? shown.slice(0, 37) + '...' : shown;
  return kind === 'object' || kind === 'array' ? `${kind} ${short}` : `${kind} ${short}`;
}

function valueAt(root: unknown, path: JsonPath): unknown {
  let node: unknown = root;
  for (const seg of path) node = node && typeof node === 'object' ? (node as Record<string | number, unknown>)[seg] : undefined;
  return node;
}

const ENUM_SHOWN = 10;

function constraintExpectation(e: ErrorObject): string {
  // ajv's params: limits, comparisons and patterns are numbers or strings; the enum's values are any JSON
  const p = e.params as Record<string, string | number> & { allowedValues?: unknown[]; allowedValue?: unknown };
  switch (e.keyword) {
    case 'enum': {
      // an enormous enum makes a one-line message of its first values, not of all of them
      const all = p.allowedValues as unknown[];
      const shown = all.slice(0, ENUM_SHOWN).map((v) => JSON.stringify(v)).join(', ');
      return `one of ${shown}${all.length > ENUM_SHOWN ? `, … (${all.length} values)` : ''}`;
    }
    case 'const':
      return `exactly ${JSON.stringify(p.allowedValue)}`;
    case 'minimum':
    case 'exclusiveMinimum':
    case 'maximum':
    case 'exclusiveMaximum':
      return `${p.comparison} ${p.limit}`;
    case 'minLength':
      return `at least ${p.limit} character${p.limit === 1 ? '' : 's'}`;
    case 'maxLength':
      return `at most ${p.limit} character${p.limit === 1 ? '' : 's'}`;
    case 'minItems':
      return `at least ${p.limit} item${p.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `at most ${p.limit} item${p.limit === 1 ? '' : 's'}`;
    case 'pattern':
      return `a match for /${p.pattern}/`;
    case 'format':
      return `format ${p.format}`;
    case 'multipleOf':
      return `a multiple of ${p.multipleOf}`;
    case 'anyOf':
    case 'oneOf':
      return e.keyword === 'oneOf' ? 'exactly one of the allowed shapes' : 'one of the allowed shapes';
    default:
      return e.message ?? e.keyword;
  }
}

function typeName(e: ErrorObject): string {
  const t = (e.params as { type?: unknown }).type;
  return Array.isArray(t) ? t.join(' or ') : String(t);
}

const SMALL_DOC = 4096;

/**
 * Validate decoded arguments against a schema, sorted into faults. `doc`/`base` locate the arguments so that
 * strict typing can read number lexemes (2.0 is not an integer there).
 */
export function validateArguments(schema: unknown, args: unknown, profile: Profile, doc: Doc | undefined, base: JsonPath): SchemaFault[] {
  const { validate } = compileSchema(schema, profile);
  if (!validate) return [];
  // a small doc whose text writes no number as a non-integer has nothing to look up (most string-encoded
  // arguments); a large one is asked per integer, as searching all of its text per call could cost more
  const lookup = doc && (doc.text.length > SMALL_DOC || mayHoldNonInteger(doc)) ? (pointer: string) => nonIntegerLexeme(doc, joinPath(base, decodePointer(pointer, args))) : undefined;
  const ok = validateWithLexemes(validate, args, lookup);
  if (ok || !validate.errors) return [];
  return classify(validate.errors, args, doc, base);
}

function classify(errors: ErrorObject[], args: unknown, doc: Doc | undefined, base: JsonPath): SchemaFault[] {
  // Errors inside a failed anyOf/oneOf branch are that composite's business: report the composite once.
  let composites: string[] | undefined;
  for (const e of errors) if (e.keyword === 'anyOf' || e.keyword === 'oneOf') (composites ??= []).push(e.schemaPath + '/');
  const inside = composites;
  const kept = inside ? errors.filter((e) => !inside.some((c) => e.schemaPath.startsWith(c))) : errors;
  const faults: SchemaFault[] = [];
  const typed = new Set<string>();
  for (const e of kept) {
    if (e.keyword === 'type' || e.keyword === INTEGER_LEXEME) typed.add(e.instancePath);
  }
  // the path itself or one of its ancestors had a type fault (walks up the path: linear, whatever the error count)
  const underTyped = (p: string) => {
    for (let at = p.length; at >= 0; at = at > 0 ? p.lastIndexOf('/', at - 1) : -1) if (typed.has(p.slice(0, at))) return true;
    return false;
  };
  const seen = new Set<string>();
  // every fault has the same fields in the same order (one hidden class for the checks that read them)
  for (const e of kept) {
    const path = decodePointer(e.instancePath, args);
    const value = valueAt(args, path);
    const name = displayPath(path);
    let fault: SchemaFault | undefined;
    if (e.keyword === 'required') {
      const missing = String((e.params as { missingProperty: string }).missingProperty);
      fault = { code: 'missing-key', path, onKey: undefined, key: missing, message: displayPath(childPath(path, missing)) };
    } else if (e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties') {
      const extra = String((e.params as { additionalProperty?: string; unevaluatedProperty?: string }).additionalProperty ??
        (e.params as { unevaluatedProperty?: string }).unevaluatedProperty);
      const at = childPath(path, extra);
      fault = { code: 'extra-key', path: at, onKey: true, key: extra, message: `${displayPath(at)} is not declared` };
    } else if (e.keyword === 'type') {
      if (underTyped(e.instancePath) && seen.has('type' + e.instancePath)) continue;
      const lexeme = typeof value === 'number' && doc ? nonIntegerLexeme(doc, joinPath(base, path)) : undefined;
      fault = { code: 'type-drift', path, onKey: undefined, key: undefined, message: `${name} wanted ${typeName(e)}, got ${describeValue(value, lexeme)}` };
      seen.add('type' + e.instancePath);
    } else if (e.keyword === INTEGER_LEXEME) {
      if (seen.has('type' + e.instancePath)) continue;
      const lexeme = String((e.params as { lexeme: string }).lexeme);
      fault = { code: 'type-drift', path, onKey: undefined, key: undefined, message: `${name} wanted integer, got number ${lexeme}` };
      seen.add('type' + e.instancePath);
    } else {
      if (underTyped(e.instancePath)) continue;
      fault = { code: 'constraint', path, onKey: undefined, key: undefined, message: `${name} wanted ${constraintExpectation(e)}, got ${describeValue(value)}` };
    }
    const key = fault.code + '\u0000' + fault.message;
    if (seen.has(key)) continue;
    seen.add(key);
    faults.push(fault);
  }
  return faults;
}
