// Keeping compile and validation bounded whatever a contract says. Two ajv keywords cost time quadratic in their
// size: `uniqueItems` over items that are not all scalars (every pair compared), and so the meta-schema's check
// that an `enum` has no duplicates. Both are replaced by a linear check on canonical JSON (keys sorted): an enum
// of 100k values compiles in milliseconds, a 20k-item argument array is checked in one pass. Patterns run on
// re2js (regex.ts), which is linear; `$ref` cycles are refused before compiling (compile.ts, refCycle).
import type Ajv from 'ajv';
import type { ErrorObject } from 'ajv';
import { canonicalJson } from '../fingerprint';
import { mapSchema } from './keywords';

export const UNIQUE_ITEMS = 'x-contract-guard-unique-items';
export const ENUM_SET = 'x-contract-guard-enum';

/** Above this many values, an enum's uniqueness is checked here and the meta-schema sees a short stand-in. */
const BIG_ENUM = 64;

type Schema = Record<string, unknown>;

/** The first pair of equal items (earlier index first), or undefined. Linear: one canonical key per item. */
export function firstDuplicate(items: readonly unknown[]): [number, number] | undefined {
  const seen = new Map<string, number>();
  for (let i = 0; i < items.length; i++) {
    const key = canonicalJson(items[i]);
    const j = seen.get(key);
    if (j !== undefined) return [j, i];
    seen.set(key, i);
  }
  return undefined;
}

/** The schema ajv compiles: `uniqueItems: true` becomes the linear keyword (same error: keyword uniqueItems), and
 *  a big `enum` a set lookup (ajv compares the value with every member: 100k members times 10k calls). */
export function boundedSchema(schema: unknown): unknown {
  return mapSchema(schema, (s) => {
    if (s.uniqueItems === true) {
      delete s.uniqueItems;
      s[UNIQUE_ITEMS] = true;
    }
    if (Array.isArray(s.enum) && s.enum.length > BIG_ENUM) {
      s[ENUM_SET] = s.enum;
      delete s.enum;
    }
    return s;
  });
}

/** `enum` as one lookup of the value's canonical JSON (ajv's equality: keys in any order, 1 and 1.0 alike). */
export const enumSetKeyword = {
  keyword: ENUM_SET,
  schemaType: 'array',
  errors: true,
  compile(values: unknown[]) {
    const members = new Set(values.map((v) => canonicalJson(v)));
    const check = function enumSet(data: unknown): boolean {
      if (members.has(canonicalJson(data))) return true;
      (check as unknown as { errors: Partial<ErrorObject>[] }).errors = [
        { keyword: 'enum', message: 'must be equal to one of the allowed values', params: { allowedValues: values } },
      ];
      return false;
    };
    return check;
  },
};

export const uniqueItemsKeyword = {
  keyword: UNIQUE_ITEMS,
  schemaType: 'boolean',
  errors: true,
  validate: function uniqueItems(this: unknown, on: boolean, data: unknown): boolean {
    if (!on || !Array.isArray(data) || data.length < 2) return true;
    const dup = firstDuplicate(data);
    if (!dup) return true;
    (uniqueItems as unknown as { errors: Partial<ErrorObject>[] }).errors = [
      { keyword: 'uniqueItems', message: `must NOT have duplicate items (items ## ${dup[1]} and ${dup[0]} are identical)`, params: { i: dup[1], j: dup[0] } },
    ];
    return false;
  },
};

/**
 * Check a schema against its meta-schema (what ajv does before compiling) without the quadratic part: every big
 * `enum` is checked for duplicates here and shown to the meta-schema as its first values. Throws ajv's error.
 */
export function checkMeta(ajv: Ajv, schema: unknown): void {
  let problem: string | undefined;
  const view = mapSchema(schema, (s, pointer) => {
    if (Array.isArray(s.enum) && s.enum.length > BIG_ENUM) {
      const dup = problem ? undefined : firstDuplicate(s.enum);
      if (dup) problem = `schema is invalid: data${pointer}/enum must NOT have duplicate items (items ## ${dup[1]} and ${dup[0]} are identical)`;
      s.enum = s.enum.slice(0, 2);
    }
    return s;
  });
  if (problem) throw new Error(problem);
  if (!(ajv.validateSchema(view as Schema) as boolean)) throw new Error(`schema is invalid: ${ajv.errorsText(ajv.errors)}`);
}
