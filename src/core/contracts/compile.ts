// Compiling argument and result schemas with ajv, once per distinct schema, for the chosen typing profile.
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { re2 } from './regex';

export type Profile = 'strict' | 'json-schema';

/** Asked during validation for the lexeme of the number at an instance path (set per validate call). */
let lexemeLookup: ((instancePath: string) => string | undefined) | undefined;

export function withLexemes<T>(lookup: (instancePath: string) => string | undefined, run: () => T): T {
  const previous = lexemeLookup;
  lexemeLookup = lookup;
  try {
    return run();
  } finally {
    lexemeLookup = previous;
  }
}

export const INTEGER_LEXEME = 'x-contract-guard-integer-lexeme';

function makeAjv(kind: 'draft-07' | '2019-09' | '2020-12'): Ajv {
  const options = {
    allErrors: true,
    strict: false,
    addUsedSchema: false,
    validateSchema: true,
    code: { regExp: re2 as never },
  };
  const ajv = kind === '2020-12' ? new Ajv2020(options) : kind === '2019-09' ? new Ajv2019(options) : new Ajv(options);
  addFormats(ajv);
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
  const declared = typeof schema === 'object' && schema !== null ? String((schema as { $schema?: unknown }).$schema ?? '') : '';
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

const SUBSCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas'];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMA_SINGLE = ['items', 'additionalItems', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains',
  'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];

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
      for (const [k, v] of Object.entries(map)) next[k] = strictSchema(v);
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
  const key = profile + '\u0000' + JSON.stringify(schema);
  const hit = compiled.get(key);
  if (hit) {
    identity?.set(schema as object, hit);
    return hit;
  }
  let result: Compiled;
  if (typeof schema === 'boolean' || isSchemaObject(schema)) {
    const effective = profile === 'strict' ? strictSchema(schema) : schema;
    try {
      const ajv = ajvFor(schema);
      result = { validate: ajv.compile(effective as Schema) };
    } catch (e) {
      const message = ((e as Error).message || String(e)).split('\n')[0];
      result = { error: { message, pointer: locateProblem(schema, message) } };
    }
  } else {
    result = { error: { message: 'a schema must be an object or a boolean', pointer: '' } };
  }
  if (compiled.size > 5000) compiled.clear();
  compiled.set(key, result);
  identity?.set(schema as object, result);
  return result;
}
