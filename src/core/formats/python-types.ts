// Type names in Python's spelling, as tool definitions written for Python write them (BFCL's function docs,
// Cohere v1 `parameter_definitions`, xLAM's parameters), and the JSON Schema type each stands for. One table for
// every reader of them.

/** Python type names to JSON Schema types; `any` stands for no type (every value is allowed). */
export const PYTHON_TYPES: ReadonlyMap<string, string | undefined> = new Map([
  ['str', 'string'], ['int', 'integer'], ['float', 'number'], ['bool', 'boolean'],
  ['list', 'array'], ['tuple', 'array'], ['set', 'array'], ['dict', 'object'], ['any', undefined],
]);

const JSON_TYPES = new Set(['string', 'integer', 'number', 'boolean', 'array', 'object']);

/** The JSON Schema type of a type name: a Python name translated, JSON Schema's own name kept, any other none. */
export function schemaType(name: string): string | undefined {
  return PYTHON_TYPES.has(name) ? PYTHON_TYPES.get(name) : JSON_TYPES.has(name) ? name : undefined;
}

/** A type as Python writes it in a docstring (`str`, `List[int]`, `Optional[float]`, `int, optional`): the JSON
 *  Schema type of its outer name, none for a union, `Any` or a name it does not know. */
export function docstringType(t: string): string | undefined {
  let s = t.trim().replace(/,\s*optional\s*$/i, '');
  const opt = /^Optional\[(.*)\]$/.exec(s);
  if (opt) s = opt[1];
  return schemaType(s.split('[')[0].trim().toLowerCase());
}
