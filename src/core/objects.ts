// The plain-object guard: one home for "is this JSON value an object with keys" (not null, not an array), which
// readers, checks, contracts and views all ask of untyped trace data.

/** A JSON object as read from a trace: keys to values not yet checked. */
export type Obj = Record<string, unknown>;

export function isPlainObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
