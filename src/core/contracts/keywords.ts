// Where a JSON Schema holds subschemas: the walkers over schemas (the strict profile's transform, the bounds on
// costly keywords) visit exactly these places, so a property that happens to be named like a keyword is data.
export const SUBSCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas'];
export const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
export const SUBSCHEMA_SINGLE = ['items', 'additionalItems', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains',
  'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];

type Schema = Record<string, unknown>;
const isSchemaObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A copy of `schema` with `edit` applied to every schema object in it (children first are not needed: top-down). */
export function mapSchema(schema: unknown, edit: (s: Schema, pointer: string) => Schema, pointer = ''): unknown {
  if (!isSchemaObject(schema)) return schema;
  const out: Schema = edit({ ...schema }, pointer);
  const esc = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
  for (const key of SUBSCHEMA_MAPS) {
    const map = schema[key];
    if (isSchemaObject(map)) {
      const next: Schema = {};
      for (const [k, v] of Object.entries(map)) Object.defineProperty(next, k, { value: mapSchema(v, edit, `${pointer}/${key}/${esc(k)}`), enumerable: true, writable: true, configurable: true });
      out[key] = next;
    }
  }
  for (const key of SUBSCHEMA_LISTS) {
    const list = schema[key];
    if (Array.isArray(list)) out[key] = list.map((s, i) => mapSchema(s, edit, `${pointer}/${key}/${i}`));
  }
  for (const key of SUBSCHEMA_SINGLE) {
    if (key in schema && !Array.isArray(schema[key])) out[key] = mapSchema(schema[key], edit, `${pointer}/${key}`);
  }
  if (Array.isArray(schema.items)) out.items = schema.items.map((s, i) => mapSchema(s, edit, `${pointer}/items/${i}`));
  return out;
}
