// JSON values written inside a text (a prompt's tool list, a call between tags, a tool's answer), found by their
// brackets and parsed where they stand. Training data writes them three ways: JSON; Python literals (`{'name':
// 'f', 'arguments': {'x': True}}`, as `str(dict)` prints them); and JSON whose one string member holds JSON in
// single quotes (Glaive's `"arguments": '{"x": 1}'`). Each is turned into JSON text of the same length where it can
// be (quotes swapped, `True` -> `true`, the single quotes around embedded JSON blanked), so a Doc made from it with
// `embeddedDoc` points into the text at the right characters; only escapes a rewrite adds shift what follows them.

export interface TextValue {
  /** Where the value starts and ends (exclusive) in the text. */
  start: number;
  end: number;
  /** The value as JSON text (the slice itself when it was JSON already). */
  json: string;
  value: unknown;
}

/** The end of a single-quoted string at `i` whose body is JSON (Glaive's `'{"title": "Ocean's Eleven"}'`): the
 *  JSON's brackets matched (its double-quoted strings skipped, an apostrophe in them is no quote), then the closing
 *  quote; -1 when the body is not bracketed that way. */
function embeddedEnd(text: string, i: number, to: number): number {
  let k = i + 1;
  while (k < to && (text[k] === ' ' || text[k] === '\t')) k++;
  if (text[k] !== '{' && text[k] !== '[') return -1;
  let depth = 0;
  for (; k < to; k++) {
    const c = text[k];
    if (c === '"') {
      for (k++; k < to && text[k] !== '"'; k++) if (text[k] === '\\') k++;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (--depth > 0) continue;
      for (k++; k < to && (text[k] === ' ' || text[k] === '\t'); k++);
      return text[k] === "'" ? k + 1 : -1;
    } else if (c === '\n' || c === "'") return -1;
  }
  return -1;
}

/** The end of the quoted string opening at `i` (the index after its closing quote), or -1 when it does not close
 *  before `to`. A single-quoted string of JSON ends after its JSON, whatever apostrophes that holds. */
function stringEnd(text: string, i: number, to = text.length): number {
  const q = text[i];
  if (q === "'") {
    const e = embeddedEnd(text, i, to);
    if (e >= 0) return e;
  }
  for (let k = i + 1; k < to; k++) {
    const c = text[k];
    if (c === '\\') k++;
    else if (c === q) return k + 1;
    else if (c === '\n' && q === "'") return -1; // a Python string does not run over a line; an apostrophe in prose
  }
  return -1;
}

/** The end of the bracketed value opening at `start` (`{` or `[`), strings of either quote skipped; -1 if it does
 *  not close before `to`. */
function closeOf(text: string, start: number, to: number): number {
  let depth = 0;
  for (let i = start; i < to; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const e = stringEnd(text, i, to);
      if (e < 0) {
        if (c === '"') return -1;
        continue; // a lone apostrophe inside a value written as prose
      }
      i = e - 1;
    } else if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function parse(text: string): { ok: boolean; value?: unknown } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** Single-quoted strings whose body is JSON (Glaive's string-encoded arguments) unquoted: their quotes blanked. */
function unquoteEmbedded(text: string): string | undefined {
  let out = '';
  let changed = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== '"' && c !== "'") {
      out += c;
      continue;
    }
    const e = stringEnd(text, i);
    if (e < 0) return undefined;
    const body = text.slice(i + 1, e - 1);
    const t = body.trim();
    if (c === "'" && (t.startsWith('{') || t.startsWith('[')) && parse(body).ok) {
      out += ` ${body} `;
      changed = true;
    } else out += text.slice(i, e);
    i = e - 1;
  }
  return changed ? out : undefined;
}

const WORDS: Record<string, string> = { True: 'true', False: 'false', None: 'null' };

/** A Python literal as JSON text, the same length but for escapes added inside strings once single-quoted. */
function pythonAsJson(text: string): string | undefined {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const e = stringEnd(text, i);
      if (e < 0) return undefined;
      if (c === '"') out += text.slice(i, e);
      else {
        let body = '';
        for (let k = i + 1; k < e - 1; k++) {
          const d = text[k];
          if (d === '\\' && text[k + 1] === "'") {
            body += "'";
            k++;
          } else if (d === '\\') {
            body += d + text[k + 1];
            k++;
          } else body += d === '"' ? '\\"' : d;
        }
        out += `"${body}"`;
      }
      i = e - 1;
    } else if (/[A-Za-z_]/.test(c)) {
      let k = i;
      while (k < text.length && /\w/.test(text[k])) k++;
      const w = text.slice(i, k);
      out += WORDS[w] ?? w;
      i = k - 1;
    } else if (c === '(' || c === ')') out += c === '(' ? '[' : ']';
    else if (c === ',' && /^\s*[}\])]/.test(text.slice(i + 1, i + 40))) out += ' ';
    else out += c;
  }
  return out;
}

/** The value whose opening bracket is at `start`, or undefined when it does not close (before `to`) or parse in
 *  any of the three spellings. */
export function valueAt(text: string, start: number, to = text.length): TextValue | undefined {
  const end = closeOf(text, start, to);
  if (end < 0) return undefined;
  const slice = text.slice(start, end);
  const direct = parse(slice);
  if (direct.ok) return { start, end, json: slice, value: direct.value };
  const unquoted = unquoteEmbedded(slice);
  if (unquoted !== undefined) {
    const u = parse(unquoted);
    if (u.ok) return { start, end, json: unquoted, value: u.value };
  }
  const py = pythonAsJson(slice);
  if (py !== undefined) {
    const p = parse(py);
    if (p.ok) return { start, end, json: py, value: p.value };
  }
  return undefined;
}

/** The first value opening at or after `from` (before `to`), skipping text that is not one. */
export function firstValue(text: string, from = 0, to = text.length): TextValue | undefined {
  // a text of many brackets that never close (code in prose) costs a scan per bracket: a few are tried, not all
  let tries = 0;
  for (let i = from; i < to && tries < 64; i++) {
    const c = text[i];
    if (c !== '{' && c !== '[') continue;
    const v = valueAt(text, i, to);
    if (v) return v;
    tries++;
  }
  return undefined;
}

/** Every value in `[from, to)` of the text, one after another (a list, or one object a line), prose between skipped. */
export function valuesIn(text: string, from = 0, to = text.length): TextValue[] {
  const out: TextValue[] = [];
  for (let i = from; i < to; ) {
    const v = firstValue(text, i, to);
    if (!v) break;
    out.push(v);
    i = v.end;
  }
  return out;
}
