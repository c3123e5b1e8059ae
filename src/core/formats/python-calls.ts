// Function calls written in Python syntax, as prompting models answer BFCL: `[f(a=1, b="x"), g.h(c=[1, 2.0])]`
// (one list, several lists on separate lines, or bare calls). Each call's keyword arguments become JSON text, number
// lexemes kept as written (`2.0` stays `2.0`), so the strict integer rule sees what the model wrote; Python
// literals map to JSON (`True` -> true, `None` -> null, tuples -> arrays, single-quoted strings -> JSON strings).
// Positional arguments have no name to check: they are counted, not kept (BFCL reads keyword arguments only).
// Anything that is not such a call list (an answer in prose, a cut-off output) gives undefined: no calls.
// `writePythonCalls` is the one home of writing them as calls (BFCL's answers, ToolACE's and other datasets').
import type { Doc, JsonPath } from '../parse/doc';
import type { SessionBuilder } from './builder';

export interface PythonCall {
  name: string;
  /** The keyword arguments as a JSON object's text. */
  argsJson: string;
  positional: number;
}

class Scanner {
  i = 0;
  constructor(readonly s: string) {}

  ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
  }

  peek(): string {
    this.ws();
    return this.s[this.i] ?? '';
  }

  eat(c: string): boolean {
    if (this.peek() !== c) return false;
    this.i++;
    return true;
  }

  ident(): string | undefined {
    this.ws();
    const m = /^[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*/.exec(this.s.slice(this.i, this.i + 400));
    if (!m) return undefined;
    this.i += m[0].length;
    return m[0];
  }
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '0': '\0' };

function pyString(sc: Scanner): string | undefined {
  const q = sc.peek();
  if (q !== '"' && q !== "'") return undefined;
  const triple = sc.s.startsWith(q.repeat(3), sc.i);
  const end = triple ? q.repeat(3) : q;
  sc.i += end.length;
  let out = '';
  while (sc.i < sc.s.length) {
    if (sc.s.startsWith(end, sc.i)) {
      sc.i += end.length;
      return out;
    }
    const c = sc.s[sc.i++];
    if (c === '\\' && sc.i < sc.s.length) {
      const e = sc.s[sc.i++];
      out += ESCAPES[e] ?? `\\${e}`;
    } else if (!triple && c === '\n') {
      return undefined;
    } else {
      out += c;
    }
  }
  return undefined;
}

/** One Python literal as JSON text, or undefined when it is not one. */
function literal(sc: Scanner, depth = 0): string | undefined {
  if (depth > 32) return undefined;
  const c = sc.peek();
  if (c === '"' || c === "'") {
    const v = pyString(sc);
    return v === undefined ? undefined : JSON.stringify(v);
  }
  if (c === '[' || c === '(') return sequence(sc, c === '[' ? ']' : ')', depth);
  if (c === '{') return dict(sc, depth);
  const num = /^[-+]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?/.exec(sc.s.slice(sc.i, sc.i + 100));
  if (num) {
    sc.i += num[0].length;
    let t = num[0].replace(/_/g, '').replace(/^\+/, '');
    if (/\.$/.test(t) || /\.[eE]/.test(t)) t = t.replace('.', '.0');
    if (/^-?\./.test(t)) t = t.replace('.', '0.');
    return t;
  }
  const word = sc.ident();
  if (word === 'True') return 'true';
  if (word === 'False') return 'false';
  if (word === 'None') return 'null';
  return undefined;
}

function sequence(sc: Scanner, close: string, depth: number): string | undefined {
  sc.i++;
  const items: string[] = [];
  while (!sc.eat(close)) {
    const v = literal(sc, depth + 1);
    if (v === undefined) return undefined;
    items.push(v);
    if (!sc.eat(',') && sc.peek() !== close) return undefined;
  }
  return `[${items.join(', ')}]`;
}

function dict(sc: Scanner, depth: number): string | undefined {
  sc.i++;
  const items: string[] = [];
  while (!sc.eat('}')) {
    const k = literal(sc, depth + 1);
    if (k === undefined || !sc.eat(':')) return undefined;
    const v = literal(sc, depth + 1);
    if (v === undefined) return undefined;
    items.push(`${k.startsWith('"') ? k : JSON.stringify(k)}: ${v}`);
    if (!sc.eat(',') && sc.peek() !== '}') return undefined;
  }
  return `{${items.join(', ')}}`;
}

/** A tool name of words separated by single spaces (`Market Trends API`, as ToolACE's definitions name tools),
 *  taken only when a `(` follows it. */
function spacedName(sc: Scanner): string | undefined {
  sc.ws();
  const m = /^[A-Za-z_][\w.-]*(?: [A-Za-z_][\w.-]*)*(?=\()/.exec(sc.s.slice(sc.i, sc.i + 400));
  if (!m) return undefined;
  sc.i += m[0].length;
  return m[0];
}

function call(sc: Scanner, spaced: boolean): PythonCall | undefined {
  const name = spaced ? spacedName(sc) : sc.ident();
  if (name === undefined || !sc.eat('(')) return undefined;
  const args: string[] = [];
  let positional = 0;
  while (!sc.eat(')')) {
    const save = sc.i;
    const key = sc.ident();
    if (key !== undefined && sc.peek() === '=' && sc.s[sc.i + 1] !== '=') {
      sc.i++;
      const v = literal(sc);
      if (v === undefined) return undefined;
      args.push(`${JSON.stringify(key)}: ${v}`);
    } else {
      sc.i = save;
      if (literal(sc) === undefined) return undefined;
      positional++;
    }
    if (!sc.eat(',') && sc.peek() !== ')') return undefined;
  }
  return { name, argsJson: `{${args.join(', ')}}`, positional };
}

/** The calls a Python-syntax answer holds, in order; undefined when the text is not only calls. `spacedNames`:
 *  a name may be words with spaces between them (ToolACE's tools), not only a dotted identifier. */
export function pythonCalls(text: string, spacedNames = false): PythonCall[] | undefined {
  const sc = new Scanner(text);
  const out: PythonCall[] = [];
  while (sc.peek() !== '') {
    const bracket = sc.eat('[');
    do {
      if (bracket && sc.peek() === ']') break;
      const c = call(sc, spacedNames);
      if (!c) return undefined;
      out.push(c);
    } while (sc.eat(','));
    if (bracket && !sc.eat(']')) return undefined;
    sc.eat(',');
    sc.eat(';');
  }
  return out.length > 0 ? out : undefined;
}

/** Write the calls of a Python-syntax answer (the text at `path` of `doc`) as calls of `turn`: each call's
 *  arguments are assembled from the text, so findings in them point at it. Their indices. */
export function writePythonCalls(b: SessionBuilder, doc: Doc, path: JsonPath, calls: PythonCall[], turn: number): number[] {
  return calls.map((c) => b.call({ name: c.name, at: { doc, path }, namePath: [], argsPath: [], args: c.argsJson, expect: 'any', assembled: true }, turn).index);
}
