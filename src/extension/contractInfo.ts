// The part of a tool's contract a hover shows: the schema of the argument a finding points at (or the whole
// arguments schema), and where the contract came from: a workspace file, or a definition embedded in the trace.
import { isPlainObject, spanOf, type ContractSet, type FileResult, type Session, type Span, type ToolCall } from '../core';

export interface ContractInfo {
  tool: string;
  /** The contract file (workspace-relative), or undefined when embedded in the trace. */
  source?: string;
  /** The argument the position is on, as a dotted path. */
  argument?: string;
  schemaText: string;
}

const MAX_LINES = 30;

const within = (s: Span, offset: number) => s.start <= offset && offset <= s.end;

/** The call of a session whose source holds `offset`. */
export function callAt(result: FileResult, offset: number): { call: ToolCall; session: Session } | undefined {
  for (const { session } of result.model ?? []) {
    for (const call of session.calls) if (within(spanOf(call.at), offset)) return { call, session };
  }
  return undefined;
}

/** The path of object keys leading to the key or value at `offset` in a call's decoded arguments. */
function argumentPath(call: ToolCall, offset: number): string[] {
  const out: string[] = [];
  let value = call.args;
  if (!call.argsDoc || !call.argsPath) return out;
  const path = [...call.argsPath];
  while (isPlainObject(value)) {
    let next: unknown;
    let found = false;
    for (const key of Object.keys(value)) {
      const keySpan = spanOf({ doc: call.argsDoc, path: [...path, key], part: 'key' });
      const valueSpan = spanOf({ doc: call.argsDoc, path: [...path, key] });
      if (within(keySpan, offset)) {
        out.push(key);
        return out;
      }
      if (within(valueSpan, offset)) {
        out.push(key);
        path.push(key);
        next = value[key];
        found = true;
        break;
      }
    }
    if (!found) break;
    value = next;
  }
  return out;
}

/** Whether `offset` is on a call's tool name. */
export function onCallName(result: FileResult, offset: number): boolean {
  return (result.model ?? []).some(({ session }) => session.calls.some((c) => within(spanOf(c.nameAt), offset)));
}

function subSchema(schema: unknown, path: string[]): { schema: unknown; depth: number } {
  let s = schema;
  let depth = 0;
  for (const key of path) {
    const props = isPlainObject(s) && isPlainObject(s.properties) ? s.properties : undefined;
    if (!props || !(key in props)) break;
    s = props[key];
    depth++;
  }
  return { schema: s, depth };
}

function render(value: unknown, key?: string): string {
  let text = JSON.stringify(value, null, 2) ?? 'undefined';
  if (key !== undefined) text = `${JSON.stringify(key)}: ${text}`;
  const lines = text.split('\n');
  return lines.length > MAX_LINES ? [...lines.slice(0, MAX_LINES), '  …'].join('\n') : text;
}

export function contractInfo(
  at: { offset: number; tool?: string },
  result: FileResult,
  contracts: ContractSet | undefined,
): ContractInfo | undefined {
  const hit = callAt(result, at.offset);
  const tool = at.tool ?? hit?.call.name;
  if (!tool) return undefined;
  const workspace = contracts?.tools.get(tool);
  const embedded = hit?.session.tools.find((t) => t.name === tool);
  const schema = workspace ? workspace.arguments : embedded?.inputSchema;
  if (!workspace && !embedded) return undefined;
  const path = hit ? argumentPath(hit.call, at.offset) : [];
  const part = subSchema(schema, path);
  const argument = part.depth ? path.slice(0, part.depth).join('.') : undefined;
  return {
    tool,
    source: workspace ? workspace.file ?? 'workspace contracts' : undefined,
    argument,
    schemaText: schema === undefined ? '(any arguments)' : render(part.schema, argument ? path[part.depth - 1] : undefined),
  };
}
