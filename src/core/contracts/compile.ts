// Compiling argument and result schemas with ajv, once per distinct schema, for the chosen typing profile.
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { re2 } from './regex';
import { SUBSCHEMA_LISTS, SUBSCHEMA_MAPS, SUBSCHEMA_SINGLE } from './keywords';
import { boundedSchema, checkMeta, enumSetKeyword, uniqueItemsKeyword } from './bounded';

export type Profile = 'strict' | 'json-schema';

/** Asked during validation for the lexeme of the number at an instance path (set per validate call). */
let lexemeLookup: ((instancePath: string) => string | undefined) | undefined;

/** `validate(data)` with `lookup` answering the integer-lexeme keyword (undefined: every number is written as its
 *  value, so none needs asking). */
export function validateWithLexemes(validate: ValidateFunction, data: unknown, lookup: ((instancePath: string) => string | undefined) | undefined): boolean {
  const previous = lexemeLookup;
  lexemeLookup = lookup;
  try {
    return validate(data);
  } finally {
    lexemeLookup = previous;
  }
}

export const INTEGER_LEXEME = 'x-contract-guard-integer-lexeme';

/** What ajv warned about while compiling the current schema (an unknown format is ignored, with a warning). */
let warnings: string[] | undefined;

function makeAjv(kind: 'draft-07' | '2019-09' | '2020-12'): Ajv {
  const options = {
    allErrors: true,
    strict: false,
    // The root must be registered for `$ref: "#"` to resolve (ajv: "can't resolve reference # from id #" otherwise);
    // compileSchema removes every schema again once it is compiled.
    addUsedSchema: true,
    // compileSchema checks the meta-schema itself (bounded.ts: big enums without ajv's quadratic uniqueness check)
    validateSchema: false,
    code: { regExp: re2 as never },
    // ajv unrolls `enum` and `required` into one expression per member: a 100k-member enum would be a 100k-term
    // function body to generate and compile. Past a few dozen members it loops instead.
    loopEnum: 32,
    loopRequired: 32,
    // ajv prints warnings (unknown formats) to the console: the core collects them for the contract's findings.
    logger: { log() {}, warn(...args: unknown[]) { warnings?.push(args.map(String).join(' ')); }, error() {} },
  };
  const ajv = kind === '2020-12' ? new Ajv2020(options) : kind === '2019-09' ? new Ajv2019(options) : new Ajv(options);
  addFormats(ajv);
  ajv.addKeyword(uniqueItemsKeyword as never);
  ajv.addKeyword(enumSetKeyword as never);
  // Strict typing reads the number as written: JSON.parse makes 2.0 the integer 2, ajv alone would accept it.
  ajv.addKeyword({
    keyword: INTEGER_LEXEME,
    schemaType: 'boolean',
    errors: true,
    validate: function integerLexeme(this: unknown, _schema: boolean, data: unknown, _parent: unknown, cxt?: { instancePath: string }) {
      if (typeof data !== 'number' || !Number.isInteger(data) || !lexemeLookup || !cxt) return true;
      const lexeme = lexemeLookup(cxt.instancePath);
      if (lexeme === undefined) return true;
      (integerLexeme as unknown as { errors: Partial<ErrorObject>[] }).errors = [
        { keyword: INTEGER_LEXEME, message: 'must be written as an integer', params: { lexeme } },
      ];
      return false;
    },
  });
  return ajv;
}

const instances = new Map<string, Ajv>();

function ajvFor(schema: unknown): Ajv {
  const meta = typeof schema === 'object' && schema !== null ? (schema as { $schema?: unknown }).$schema : undefined;
  const declared = typeof meta === 'string' ? meta : '';
  const kind = declared.includes('2020-12') ? '2020-12' : declared.includes('2019-09') ? '2019-09' : 'draft-07';
  let ajv = instances.get(kind);
  if (!ajv) {
    ajv = makeAjv(kind);
    instances.set(kind, ajv);
  }
  return ajv;
}

type Schema = Record<string, unknown>;
const isSchemaObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);


function declaresInteger(s: Schema): boolean {
  return s.type === 'integer' || (Array.isArray(s.type) && s.type.includes('integer'));
}

/**
 * The strict profile's view of a schema: an object schema that lists `properties` but says nothing about
 * other keys gets `additionalProperties: false` (the invented `lang` slips through exactly there), and every
 * integer position checks the lexeme. Schemas combined with allOf are left open: their keys live in siblings.
 */
export function strictSchema(schema: unknown, inComposition = false): unknown {
  if (!isSchemaObject(schema)) return schema;
  const out: Schema = { ...schema };
  for (const key of SUBSCHEMA_MAPS) {
    const map = schema[key];
    if (isSchemaObject(map)) {
      const next: Schema = {};
      // defineProperty: a property named __proto__ stays a property (assignment would set the prototype)
      for (const [k, v] of Object.entries(map)) Object.defineProperty(next, k, { value: strictSchema(v), enumerable: true, writable: true, configurable: true });
      out[key] = next;
    }
  }
  for (const key of SUBSCHEMA_LISTS) {
    const list = schema[key];
    if (Array.isArray(list)) out[key] = list.map((s) => strictSchema(s, key === 'allOf'));
  }
  for (const key of SUBSCHEMA_SINGLE) {
    if (key in schema) out[key] = strictSchema(schema[key]);
  }
  if (Array.isArray(schema.items)) out.items = schema.items.map((s) => strictSchema(s));
  const open = 'additionalProperties' in schema || 'unevaluatedProperties' in schema || 'patternProperties' in schema;
  if (isSchemaObject(schema.properties) && !open && !inComposition && !('allOf' in schema)) out.additionalProperties = false;
  if (declaresInteger(schema)) out[INTEGER_LEXEME] = true;
  return out;
}

export interface Compiled {
  validate?: ValidateFunction;
  /** Why the schema could not be compiled, with the JSON pointer of the offending keyword when known. */
  error?: { message: string; pointer: string };
  /** What compiled but will not be checked as written (a format no validator knows), with where it is. */
  warnings?: { message: string; pointer: string }[];
}

const compiled = new Map<string, Compiled>();
// Workspace contracts hand the same schema object to every call: find it by identity before hashing its text.
const byIdentity = { strict: new WeakMap<object, Compiled>(), 'json-schema': new WeakMap<object, Compiled>() };

/** Where in a schema a compile error comes from: ajv names the place (`data/properties/x/type`) when the schema
 *  breaks the meta-schema; otherwise look for the keyword, or the value, that the message quotes. */
function locateProblem(schema: unknown, message: string): string {
  const meta = /data((?:\/[^\s,]+)+)/.exec(message);
  if (meta) return meta[1];
  const quoted = /"([^"]+)"|'([^']+)'|`([^`]+)`/.exec(message);
  const needle = quoted ? quoted[1] ?? quoted[2] ?? quoted[3] : undefined;
  if (!needle) return '';
  const seen = new Set<unknown>();
  const walk = (node: unknown, pointer: string): string | undefined => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return undefined;
    seen.add(node);
    for (const [k, v] of Object.entries(node)) {
      const here = `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (k === needle || v === needle || (typeof v === 'string' && v.includes(needle))) return here;
      const deeper = walk(v, here);
      if (deeper !== undefined) return deeper;
    }
    return undefined;
  };
  return walk(schema, '') ?? '';
}

export function compileSchema(schema: unknown, profile: Profile): Compiled {
  const identity = typeof schema === 'object' && schema !== null ? byIdentity[profile] : undefined;
  const known = identity?.get(schema as object);
  if (known) return known;
  let key: string;
  try {
    key = profile + '\u0000' + JSON.stringify(schema);
  } catch {
    // a schema nested past what JSON.stringify can print (an embedded definition in a hostile trace)
    const result = { error: { message: 'nested too deeply to compile', pointer: '' } };
    identity?.set(schema as object, result);
    return result;
  }
  const hit = compiled.get(key);
  if (hit) {
    identity?.set(schema as object, hit);
    return hit;
  }
  let result: Compiled;
  if (typeof schema === 'boolean' || isSchemaObject(schema)) {
    let ajv: Ajv | undefined;
    let effective: unknown;
    warnings = [];
    try {
      const cycle = refCycle(schema);
      if (cycle) throw new CycleError(cycle);
      effective = boundedSchema(profile === 'strict' ? strictSchema(schema) : schema);
      ajv = ajvFor(schema);
      const id = typeof (schema as Schema).$id === 'string' ? ((schema as Schema).$id as string).replace(/#$/, '') : '';
      // an $id ajv already holds (a meta-schema's): compile fails on it, and removing it afterwards would remove theirs
      if (id && (ajv.refs[id] || ajv.schemas[id])) {
        ajv = undefined;
        throw Object.assign(new Error(`$id "${id}" is already taken by another schema`), { pointer: '/$id' });
      }
      checkMeta(ajv, schema);
      result = { validate: ajv.compile(effective as Schema) };
      if (warnings.length) result.warnings = [...new Set(warnings)].map((w) => ({ message: w.replace(/ ignored in schema at path .*$/, ' (not checked)'), pointer: locateProblem(schema, w) }));
    } catch (e) {
      const pointer = (e as { pointer?: unknown }).pointer;
      if (typeof pointer === 'string') result = { error: { message: (e as Error).message, pointer } };
      else {
        const message = e instanceof RangeError ? 'nested too deeply to compile' : ((e as Error).message || String(e)).split('\n')[0];
        result = { error: { message, pointer: e instanceof RangeError ? '' : locateProblem(schema, message) } };
      }
    } finally {
      warnings = undefined;
      // ajv remembers every schema it compiled (by object): forget it, the validate function keeps what it needs.
      if (ajv && typeof effective === 'object' && effective !== null) ajv.removeSchema(effective);
    }
  } else {
    result = { error: { message: 'a schema must be an object or a boolean', pointer: '' } };
  }
  if (compiled.size > 1000) {
    // ajv instances also keep every compiled schema's values in their code scope: start them afresh too.
    compiled.clear();
    instances.clear();
  }
  compiled.set(key, result);
  identity?.set(schema as object, result);
  return result;
}

class CycleError extends Error {
  constructor(readonly cycle: { pointer: string; keyword: string; path: string[] }) {
    super(`${cycle.keyword} at ${cycle.pointer || '/'} leads back to itself without reading any deeper into the value (${cycle.path.join(' -> ')}): validation would never end`);
  }
  get pointer(): string {
    return this.cycle.pointer;
  }
}

const IN_PLACE_LISTS = ['allOf', 'anyOf', 'oneOf'];
const IN_PLACE_SINGLE = ['not', 'if', 'then', 'else'];
const REF_KEYWORDS = ['$ref', '$dynamicRef', '$recursiveRef'];

const escapePointer = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * A chain of references that returns to the same schema while staying on the same value (through `$ref`,
 * `allOf`/`anyOf`/`oneOf`, `not`, `if`/`then`/`else`, `dependentSchemas`) recurses forever when validating:
 * ajv compiles it and the validator overflows the stack. Found here, statically, over local references
 * (`#`, `#/json/pointer`, `#anchor`); the keyword that closes the cycle is reported.
 */
export function refCycle(root: unknown): { pointer: string; keyword: string; path: string[] } | undefined {
  if (!isSchemaObject(root)) return undefined;
  // every schema object by pointer, and the anchors
  const byPointer = new Map<string, Schema>();
  const anchors = new Map<string, string>();
  const stack: [unknown, string][] = [[root, '']];
  while (stack.length) {
    const [node, pointer] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (!Array.isArray(node)) {
      const s = node as Schema;
      byPointer.set(pointer, s);
      for (const a of ['$anchor', '$dynamicAnchor']) if (typeof s[a] === 'string') anchors.set(s[a], pointer);
      if (typeof s.$id === 'string' && s.$id.startsWith('#')) anchors.set(s.$id.slice(1), pointer);
    }
    for (const [k, v] of Object.entries(node)) if (typeof v === 'object' && v !== null) stack.push([v, `${pointer}/${escapePointer(k)}`]);
  }
  const resolve = (ref: string): string | undefined => {
    if (ref === '#') return '';
    if (!ref.startsWith('#')) return undefined; // not local: ajv resolves (or refuses) it
    const frag = ref.slice(1);
    if (frag.startsWith('/')) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(frag);
      } catch {
        return undefined;
      }
      return byPointer.has(decoded) ? decoded : undefined;
    }
    return anchors.get(frag);
  };
  const edges = (pointer: string): { to: string; via: string }[] => {
    const s = byPointer.get(pointer)!;
    const out: { to: string; via: string }[] = [];
    for (const k of REF_KEYWORDS) {
      if (typeof s[k] === 'string') {
        // a dynamic reference whose anchor is nowhere resolves to the root (where ajv starts its dynamic scope)
        const to = resolve(s[k]) ?? (k !== '$ref' && s[k].startsWith('#') ? '' : undefined);
        if (to !== undefined) out.push({ to, via: `${pointer}/${escapePointer(k)}` });
      }
    }
    for (const k of IN_PLACE_LISTS) {
      const list = s[k];
      if (Array.isArray(list)) list.forEach((_, i) => { if (byPointer.has(`${pointer}/${k}/${i}`)) out.push({ to: `${pointer}/${k}/${i}`, via: `${pointer}/${k}/${i}` }); });
    }
    for (const k of IN_PLACE_SINGLE) if (byPointer.has(`${pointer}/${k}`)) out.push({ to: `${pointer}/${k}`, via: `${pointer}/${k}` });
    if (isSchemaObject(s.dependentSchemas)) {
      for (const k of Object.keys(s.dependentSchemas)) {
        const p = `${pointer}/dependentSchemas/${escapePointer(k)}`;
        if (byPointer.has(p)) out.push({ to: p, via: p });
      }
    }
    return out;
  };
  // iterative DFS with colours over the in-place graph
  const colour = new Map<string, 1 | 2>();
  for (const start of byPointer.keys()) {
    if (colour.has(start)) continue;
    const path: { node: string; edges: { to: string; via: string }[]; i: number; via?: string }[] = [{ node: start, edges: edges(start), i: 0 }];
    colour.set(start, 1);
    while (path.length) {
      const top = path[path.length - 1];
      if (top.i >= top.edges.length) {
        colour.set(top.node, 2);
        path.pop();
        continue;
      }
      const e = top.edges[top.i++];
      const c = colour.get(e.to);
      if (c === 1) {
        const from = path.findIndex((f) => f.node === e.to);
        const chain = [...path.slice(from + 1).map((f) => f.via!), e.via];
        const closing = chain.find((v) => REF_KEYWORDS.some((k) => v.endsWith('/' + escapePointer(k)))) ?? e.via;
        return { pointer: closing, keyword: closing.slice(closing.lastIndexOf('/') + 1), path: chain.map((v) => v || '/') };
      }
      if (c === undefined) {
        colour.set(e.to, 1);
        path.push({ node: e.to, edges: edges(e.to), i: 0, via: e.via });
      }
    }
  }
  return undefined;
}
