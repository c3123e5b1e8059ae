// Fuzz inputs: one deterministic input per (seed, index). Seeds are the repo's fixtures (traces and contracts)
// and, when present, the shared corpus (../shared/corpus, read in place, never copied). An input is
//   {kind: 'text', name, text}            -> checkText / TraceChecker line by line (the CLI's stream path)
//   {kind: 'bytes', name, bytes}          -> checkBytes (zips, invalid UTF-8)
//   {kind: 'contract', name, text, trace} -> loadContracts, then checkText of a trace under what loaded
// Regenerating an input from its (seed, index) is how failures are saved: the worker and the saver agree.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus');

// ---------------------------------------------------------------- PRNG (sfc32, seeded by a string hash)
function hash(str) {
  let h = 1779033703 ^ str.length;
  for (let i = 0; i < str.length; i++) {
    h = Math.imul(h ^ str.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  return () => {
    h = Math.imul(h ^ (h >>> 16), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    return (h ^= h >>> 16) >>> 0;
  };
}

function prng(seed, index) {
  const next = hash(`${seed}:${index}`);
  let a = next(), b = next(), c = next(), d = next();
  const r = () => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) r();
  r.int = (n) => Math.floor(r() * n);
  r.pick = (xs) => xs[Math.floor(r() * xs.length)];
  r.chance = (p) => r() < p;
  return r;
}

// ---------------------------------------------------------------- seeds
function readSeeds() {
  const traces = [];
  const contracts = [];
  const zips = [];
  const add = (file, rel) => {
    const buf = fs.readFileSync(file);
    if (/\.eval$/i.test(file)) zips.push({ name: rel, bytes: new Uint8Array(buf) });
    else traces.push({ name: rel, text: buf.toString('utf8') });
  };
  const walk = (dir, rel, into) => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(full, r, into);
      else if (/\.(jsonl?|traj|eval|ndjson)$/i.test(e.name)) into(full, r);
    }
  };
  walk(path.join(ROOT, 'fixtures', 'traces'), 'fixtures/traces', add);
  walk(path.join(ROOT, 'fixtures', 'vscode'), 'fixtures/vscode', add);
  walk(CORPUS, 'corpus', add);
  walk(path.join(ROOT, 'fixtures', 'contracts'), 'fixtures/contracts', (full, rel) =>
    contracts.push({ name: rel, text: fs.readFileSync(full, 'utf8') }));
  return { traces, contracts, zips, corpus: fs.existsSync(CORPUS) };
}

let SEEDS;
function seeds() {
  return (SEEDS ??= readSeeds());
}

// ---------------------------------------------------------------- building blocks
const HUGE_NUMBERS = ['1e400', '-1e400', '1e-400', '123456789012345678901234567890', '-0', '0.0', '2.0', '2e0', '9007199254740993',
  '1' + '0'.repeat(400), '0.' + '0'.repeat(400) + '1', '-9'.padEnd(5000, '9'), '1E+2', '-', '01', '1.', '.5', '1e', 'NaN', 'Infinity'];
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'then'];
const ODD_CHARS = ['"', '\\', '{', '}', '[', ']', ',', ':', '\u0000', '\u2028', '\ud800', '\udfff', '\ufeff', '\n', '\r', '\t', '\u0085',
  '\uffff', '\u001f', '\u007f', 'é', '😀', ' ', '/', '*', '#', "'", '`'];
const STRING_ESCAPES = ['\\ud800', '\\udfff', '\\u0000', '\\ud83d\\ude00', '\\uDBFF', '\\\\', '\\"', '\\u12', '\\x41', '\\/', '\\u2028'];

function deepText(r, depth) {
  const kind = r.int(4);
  if (kind === 0) return '['.repeat(depth) + ']'.repeat(depth);
  if (kind === 1) return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  if (kind === 2) return '['.repeat(depth); // never closed
  return '{"arguments":'.repeat(depth) + '{}' + '}'.repeat(depth);
}

function deepDepth(r) {
  const roll = r();
  return roll < 0.02 ? 100000 : roll < 0.07 ? 20000 : r.pick([50, 200, 1000, 5000]);
}

function randomValueText(r, others) {
  switch (r.int(14)) {
    case 0: return 'null';
    case 1: return r.pick(['true', 'false']);
    case 2: return r.pick(HUGE_NUMBERS);
    case 3: return JSON.stringify('x'.repeat(r.chance(0.03) ? 200000 : r.pick([0, 1, 100, 10000])));
    case 4: return '[]';
    case 5: return '{}';
    case 6: return deepText(r, deepDepth(r));
    case 7: return JSON.stringify({ [r.pick(PROTO_KEYS)]: { polluted: 'yes' } }).replace('"' + '"', '""');
    case 8: return `{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}`;
    case 9: return JSON.stringify(JSON.stringify({ a: 1, [r.pick(PROTO_KEYS)]: 2 }));
    case 10: return '"' + r.pick(STRING_ESCAPES) + '"';
    case 11: return JSON.stringify('```json\n{"a": 1}\n```');
    case 12: {
      const other = r.pick(others);
      const at = r.int(other.length);
      return JSON.stringify(other.slice(at, at + r.int(400)));
    }
    default: return String(r.int(1000) - 500);
  }
}

/** Positions of characters in `chars` (sampled: at most `max`, from a random start). */
function positionsOf(text, chars, r, max = 64) {
  const out = [];
  const start = r.int(Math.max(1, text.length));
  for (let k = 0; k < text.length && out.length < max; k++) {
    const i = (start + k) % text.length;
    if (chars.includes(text[i])) out.push(i);
  }
  return out;
}

// ---------------------------------------------------------------- text mutations
const TEXT_MUTATIONS = {
  truncate(t, r) { return t.slice(0, r.int(t.length + 1)); },
  flip(t, r) {
    const i = r.int(t.length + 1);
    const c = r.chance(0.5) ? r.pick(ODD_CHARS) : String.fromCharCode(r.int(r.chance(0.8) ? 128 : 0x10000));
    return t.slice(0, i) + c + t.slice(i + 1);
  },
  deleteBracket(t, r) {
    const ps = positionsOf(t, '{}[]"', r);
    if (!ps.length) return t;
    const i = r.pick(ps);
    return t.slice(0, i) + t.slice(i + 1);
  },
  duplicateBracket(t, r) {
    const ps = positionsOf(t, '{}[]"', r);
    if (!ps.length) return t + r.pick(['{', '[', '"', '}', ']']);
    const i = r.pick(ps);
    return t.slice(0, i) + t[i].repeat(1 + r.int(3)) + t.slice(i);
  },
  hugeNumber(t, r) {
    const ps = positionsOf(t, '0123456789', r, 32);
    if (!ps.length) return t;
    const i = r.pick(ps);
    let j = i;
    while (j < t.length && /[0-9.eE+-]/.test(t[j])) j++;
    return t.slice(0, i) + r.pick(HUGE_NUMBERS) + t.slice(j);
  },
  loneSurrogate(t, r) {
    const ps = positionsOf(t, '"', r);
    const i = ps.length ? r.pick(ps) + 1 : r.int(t.length + 1);
    const s = r.chance(0.5) ? r.pick(['\ud800', '\udc00', '\udbff', '\udfff']) : r.pick(STRING_ESCAPES);
    return t.slice(0, i) + s + t.slice(i);
  },
  nul(t, r) {
    const i = r.int(t.length + 1);
    return t.slice(0, i) + r.pick(['\u0000', '\\u0000', '\u0000\u0000\u0000']) + t.slice(i);
  },
  protoKey(t, r) {
    const ps = [];
    const re = /"([^"\\\n]{1,40})"\s*:/g;
    re.lastIndex = r.int(Math.max(1, t.length));
    for (let m = re.exec(t); m && ps.length < 16; m = re.exec(t)) ps.push(m);
    if (!ps.length) return t;
    const m = r.pick(ps);
    return t.slice(0, m.index) + `"${r.pick(PROTO_KEYS)}":` + t.slice(m.index + m[0].length);
  },
  protoObject(t, r) {
    const ps = positionsOf(t, '{', r);
    if (!ps.length) return t;
    const i = r.pick(ps) + 1;
    const inj = r.pick([
      '"__proto__": {"polluted": "yes"}, ',
      '"constructor": {"prototype": {"polluted": "yes"}}, ',
      '"__proto__": [1], "prototype": null, ',
      '"__proto__": "x", ',
      '"name": "__proto__", ',
      '"name": "constructor", "id": "__proto__", ',
      '"arguments": "{\\"__proto__\\": {\\"polluted\\": 1}}", ',
    ]);
    return t.slice(0, i) + inj + t.slice(i);
  },
  deepNest(t, r) {
    const ps = positionsOf(t, ':,[', r);
    if (!ps.length) return deepText(r, deepDepth(r));
    const i = r.pick(ps) + 1;
    // a value position: what follows is a value; keep the old value after a comma so the text stays close to JSON
    return t.slice(0, i) + deepText(r, deepDepth(r)) + (t[i - 1] === '[' ? ',' : t[i - 1] === ':' ? ', "x":' : ',') + t.slice(i);
  },
  replaceValue(t, r, others) {
    const ps = positionsOf(t, ':', r);
    if (!ps.length) return t;
    const i = ps[r.int(ps.length)] + 1;
    // the old value's extent, roughly: to the next , } ] at the same line
    let j = i;
    while (j < t.length && j - i < 2000 && !',}]\n'.includes(t[j])) j++;
    return t.slice(0, i) + randomValueText(r, others) + t.slice(j);
  },
  splice(t, r, others) {
    const other = r.pick(others);
    const a = r.int(other.length);
    const piece = other.slice(a, a + 1 + r.int(2000));
    const i = r.int(t.length + 1);
    return t.slice(0, i) + piece + t.slice(r.chance(0.5) ? i : Math.min(t.length, i + r.int(200)));
  },
  lines(t, r, others) {
    const ls = t.split('\n');
    const op = r.int(5);
    const i = r.int(ls.length);
    if (op === 0) ls.splice(i, 1);
    else if (op === 1) ls.splice(i, 0, ls[r.int(ls.length)]);
    else if (op === 2) { const j = r.int(ls.length); [ls[i], ls[j]] = [ls[j], ls[i]]; }
    else if (op === 3) ls.splice(i, 0, r.pick(r.pick(others).split('\n')));
    else ls.splice(i, 0, r.pick(['', '   ', '\r', '{}', '[]', 'null', '"x"', '1', '{"type":"message"}', '\ufeff{}']));
    return ls.join(r.chance(0.1) ? '\r\n' : '\n');
  },
  longString(t, r) {
    const ps = positionsOf(t, '"', r);
    if (!ps.length) return t;
    const i = r.pick(ps) + 1;
    const n = r.chance(0.03) ? 500000 : r.pick([100, 1000, 20000]);
    const unit = r.pick(['a', 'a!', '\\n', '\\"', 'é', '\\u00e9', '1', ' ', '@a.', '://']);
    return t.slice(0, i) + unit.repeat(Math.ceil(n / unit.length)) + t.slice(i);
  },
  bomCrlf(t, r) {
    if (r.chance(0.5)) return '\ufeff' + t;
    return t.replace(/\n/g, r.pick(['\r\n', '\r', '\n\n', '\u2028']));
  },
};

// ---------------------------------------------------------------- structure-aware mutations (parse, change a node, print)
function collectNodes(root, max = 4000) {
  const out = [];
  const stack = [{ parent: null, key: null, value: root, depth: 0 }];
  while (stack.length && out.length < max) {
    const n = stack.pop();
    out.push(n);
    if (n.depth > 60) continue;
    if (Array.isArray(n.value)) n.value.forEach((v, i) => stack.push({ parent: n.value, key: i, value: v, depth: n.depth + 1 }));
    else if (n.value && typeof n.value === 'object') for (const k of Object.keys(n.value)) stack.push({ parent: n.value, key: k, value: n.value[k], depth: n.depth + 1 });
  }
  return out;
}

function setOwn(obj, key, value) {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

function randomValue(r, nodes) {
  switch (r.int(16)) {
    case 0: return null;
    case 1: return r.chance(0.5);
    case 2: return r.pick([0, -1, 1.5, 1e308, -1e308, 5e-324, 2 ** 53 + 2, 7, 60, 180]);
    case 3: return r.pick(['', 'x', 'true', '2', '2.0', 'null', '{}', '[]', '{"a":1}', '__proto__', 'constructor', '\u0000', '\ud800', 'a'.repeat(10000)]);
    case 4: return [];
    case 5: return {};
    case 6: { let v = {}; for (let d = r.pick([10, 300, 1000]); d > 0; d--) v = { a: v }; return v; }
    case 7: { const o = {}; setOwn(o, r.pick(PROTO_KEYS), { polluted: 'yes' }); return o; }
    case 8: return JSON.stringify(r.pick(nodes).value ?? null); // a node, string-encoded
    case 9: return JSON.stringify(JSON.stringify({ a: 1 }));
    case 10: return '```json\n' + JSON.stringify(r.pick(nodes).value ?? {}) + '\n```';
    case 11: return { input: r.pick(nodes).value ?? null };
    case 12: return Array.from({ length: r.pick([2, 100, 2000]) }, (_, i) => ({ i: i % 7 }));
    default: return structuredCloneSafe(r.pick(nodes).value);
  }
}

function structuredCloneSafe(v) {
  if (v === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(v));
  } catch {
    return null;
  }
}

function mutateValue(root, r) {
  const nodes = collectNodes(root);
  const steps = 1 + r.int(3);
  for (let s = 0; s < steps; s++) {
    const n = r.pick(nodes);
    if (!n.parent) continue;
    const op = r.int(6);
    if (op === 0) {
      if (Array.isArray(n.parent)) n.parent.splice(n.key, 1);
      else delete n.parent[n.key];
    } else if (op === 1 && !Array.isArray(n.parent)) {
      const v = n.parent[n.key];
      delete n.parent[n.key];
      setOwn(n.parent, r.pick(PROTO_KEYS), v);
    } else if (op === 2 && Array.isArray(n.parent)) {
      n.parent.splice(n.key, 0, structuredCloneSafe(n.value));
    } else if (op === 3 && n.value && typeof n.value === 'object') {
      // swap in a value of another type that the adapters read from this place
      n.parent[n.key] = Array.isArray(n.value) ? { ...n.value } : Object.values(n.value);
    } else {
      n.parent[n.key] = randomValue(r, nodes);
    }
  }
  return root;
}

function printJson(v, r) {
  try {
    return JSON.stringify(v, null, r.pick([0, 0, 2, '\t']));
  } catch {
    return 'null';
  }
}

function structural(text, name, r) {
  const jsonl = /\.(jsonl|ndjson)$/i.test(name) || (!/^\s*[[{][\s\S]*[\]}]\s*$/.test(text) && text.includes('\n'));
  if (jsonl || r.chance(0.2)) {
    const ls = text.split('\n');
    const k = 1 + r.int(3);
    for (let s = 0; s < k; s++) {
      const i = r.int(ls.length);
      try {
        ls[i] = JSON.stringify(mutateValue(JSON.parse(ls[i]), r));
      } catch { /* not a JSON line: leave it */ }
    }
    return ls.join('\n');
  }
  try {
    return printJson(mutateValue(JSON.parse(text), r), r);
  } catch {
    return text;
  }
}

// ---------------------------------------------------------------- bytes
function mutateBytes(bytes, r) {
  const arr = Array.from(bytes.length > 200000 ? bytes.subarray(0, 200000) : bytes);
  const n = 1 + r.int(4);
  for (let s = 0; s < n; s++) {
    const i = r.int(arr.length + 1);
    const op = r.int(5);
    if (op === 0) arr.splice(i, 0, ...r.pick([[0xff], [0xfe, 0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xf4, 0x90, 0x80, 0x80], [0x80], [0xef, 0xbb, 0xbf], [0]]));
    else if (op === 1) arr[i] = r.int(256);
    else if (op === 2) arr.length = Math.min(arr.length, i);
    else if (op === 3) arr.splice(i, 1 + r.int(16));
    else arr.splice(i, 0, ...arr.slice(r.int(arr.length), r.int(arr.length)).slice(0, 64));
  }
  return Uint8Array.from(arr);
}

// ---------------------------------------------------------------- hostile contracts
const HOSTILE_SCHEMAS = [
  { type: 'string', pattern: '^(a+)+$' },
  { type: 'string', pattern: '(x+x+)+y' },
  { type: 'string', pattern: '^(?=a)a+$' },
  { type: 'string', pattern: '(a)\\1' },
  { type: 'string', pattern: '[' },
  { type: 'object', patternProperties: { '^(a|a)*$': { type: 'string' } } },
  { enum: Array.from({ length: 300 }, (_, i) => `v${i}`) },
  { enum: Array.from({ length: 100 }, (_, i) => ({ k: i })) },
  { $ref: '#' },
  { definitions: { a: { $ref: '#/definitions/b' }, b: { $ref: '#/definitions/a' } }, $ref: '#/definitions/a' },
  { type: 'object', properties: { next: { $ref: '#' } } },
  { $ref: 'http://127.0.0.1:9/schema.json' },
  { $ref: 'https://example.invalid/schema.json#/definitions/x' },
  { $ref: 'file:///etc/passwd' },
  { $id: 'http://example.invalid/root.json', $ref: 'other.json' },
  { type: 'string', format: 'no-such-format' },
  { type: 'string', format: 'email' },
  { type: 'string', format: 'uri' },
  { type: 'string', format: 'hostname' },
  { type: 'string', format: 'date-time' },
  { type: 'string', format: 'regex' },
  { 'x-unknown-keyword': { deep: [1, 2, 3] }, type: 'object' },
  { type: 'nonsense' },
  { minimum: 'a' },
  { type: 'array', uniqueItems: true },
  { type: 'array', uniqueItems: true, items: { type: 'object' } },
  { multipleOf: 1e-308 },
  { type: 'number', multipleOf: 0.1 },
  { minLength: 1e308 },
  { $schema: 'https://json-schema.org/draft/2020-12/schema', $dynamicRef: '#meta' },
  { $schema: 'http://example.invalid/unknown-meta' },
  { type: 'object', required: Array.from({ length: 300 }, (_, i) => `k${i}`) },
  { allOf: Array.from({ length: 50 }, () => ({ type: 'object' })) },
  { anyOf: [{ $ref: '#' }, { type: 'string' }] },
  { not: { not: { not: {} } } },
  { if: { $ref: '#' }, then: { $ref: '#' } },
  { properties: { __proto__: { type: 'string' }, constructor: { type: 'integer' } } },
  { type: 'object', additionalProperties: { $ref: '#' } },
  { type: 'string', pattern: '\\p{L}+' },
  { type: 'string', pattern: '(?i)abc' },
];

function hostileSchema(r) {
  const s = structuredCloneSafe(r.pick(HOSTILE_SCHEMAS));
  if (r.chance(0.3)) return { type: 'object', properties: { city: s, q: structuredCloneSafe(r.pick(HOSTILE_SCHEMAS)) } };
  return s;
}

function hostileArgs(r) {
  const long = r.pick(['a', 'x', '@', 'a.', '1', ':/']).repeat(r.chance(0.05) ? 50000 : r.pick([30, 1000, 5000]));
  return r.pick([
    { city: long + '!', q: long },
    { city: Array.from({ length: r.pick([100, 1000]) }, (_, i) => ({ i: i % 3, s: 'x' })) },
    { city: (() => { let v = {}; for (let d = r.pick([10, 500, 1000]); d > 0; d--) v = { next: v }; return v; })() },
    { city: 'a'.repeat(20) + 'b', q: 'aaaa' },
    { city: 1.5, q: Array.from({ length: 2000 }, (_, i) => i) },
    { __proto__: null, city: 'Oslo', ['__proto__']: 'x' },
  ]);
}

function contractInput(r) {
  const { contracts, traces } = seeds();
  const trace = r.pick(traces.filter((t) => t.name.startsWith('fixtures/') && !/\.eval$/.test(t.name)));
  if (r.chance(0.5)) {
    // a hostile schema for the seed tool get_weather, and calls that push on it
    const tool = 'get_weather';
    const schema = hostileSchema(r);
    const form = r.int(3);
    const text = form === 0
      ? JSON.stringify({ tools: { [tool]: { arguments: schema } } })
      : form === 1
        ? JSON.stringify([{ type: 'function', function: { name: tool, parameters: schema } }])
        : JSON.stringify([{ name: tool, input_schema: schema }]);
    const callLines = Array.from({ length: 1 + r.int(3) }, () => JSON.stringify({ name: tool, arguments: hostileArgs(r) })).join('\n') + '\n';
    return { kind: 'contract', name: 'hostile.contract.json', text, trace: { name: 'hostile.calls.jsonl', text: callLines } };
  }
  const c = r.pick(contracts);
  const others = contracts.map((x) => x.text);
  let text;
  if (r.chance(0.5)) {
    text = structural(c.text, c.name, r);
    if (r.chance(0.5)) {
      try {
        const v = JSON.parse(text);
        const nodes = collectNodes(v).filter((n) => n.parent && !Array.isArray(n.parent));
        if (nodes.length) { const n = r.pick(nodes); n.parent[n.key] = hostileSchema(r); }
        text = printJson(v, r);
      } catch { /* keep */ }
    }
  } else {
    text = c.text;
    for (let s = 1 + r.int(3); s > 0; s--) text = TEXT_MUTATIONS[r.pick(Object.keys(TEXT_MUTATIONS))](text, r, others);
  }
  return { kind: 'contract', name: c.name, text, trace };
}

// ---------------------------------------------------------------- the pathological set (big; run on a schedule)
const SPECIALS = [
  { name: 'deep-array-100k.json', make: () => '['.repeat(100000) + ']'.repeat(100000) },
  { name: 'deep-object-100k.jsonl', make: () => '{"a":'.repeat(100000) + '1' + '}'.repeat(100000) + '\n' },
  { name: 'deep-arguments-100k.jsonl', make: () => JSON.stringify({ name: 'get_weather', arguments: '['.repeat(100000) + ']'.repeat(100000) }) + '\n' },
  { name: 'deep-unclosed-100k.json', make: () => '{"messages":' + '['.repeat(100000) },
  { name: 'single-line-50mb.jsonl', make: () => {
    const args = { city: 'Oslo', units: 'metric', note: 'x'.repeat(50 * 1024 * 1024) };
    return JSON.stringify({ name: 'get_weather', arguments: args }) + '\n';
  } },
  { name: 'single-line-50mb-broken.jsonl', make: () => '{"name": "get_weather", "arguments": {"city": "' + 'y'.repeat(50 * 1024 * 1024) + '\n' },
  { name: 'tiny-lines-1m.jsonl', make: () => '{}\n'.repeat(1000000) },
  { name: 'tiny-calls-1m.jsonl', make: () => '{"name":"get_time","arguments":{}}\n1\n'.repeat(500000) },
  { name: 'many-keys.json', make: () => JSON.stringify({ messages: [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'get_weather', arguments: JSON.stringify(Object.fromEntries(Array.from({ length: 200000 }, (_, i) => [`k${i}`, i]))) } }] }] }) },
  { name: 'zip-bomb.eval', bytes: true, make: () => zipBomb() },
  { name: 'proto-everywhere.jsonl', make: () => [
    '{"__proto__": {"polluted": "yes"}, "name": "__proto__", "arguments": {"__proto__": {"polluted": "yes"}}}',
    '{"name": "constructor", "id": "__proto__", "arguments": "{\\"constructor\\": {\\"prototype\\": {\\"polluted\\": \\"yes\\"}}}"}',
    '{"role": "assistant", "tool_calls": [{"id": "__proto__", "type": "function", "function": {"name": "hasOwnProperty", "arguments": "{}"}}]}',
    '{"role": "tool", "tool_call_id": "__proto__", "content": "{\\"__proto__\\": {\\"ok\\": false}}"}',
    '{"role": "tool", "tool_call_id": "toString", "content": "x"}',
  ].join('\n') + '\n' },
];

function zipBomb() {
  // A zip whose header.json claims (and inflates to) 64 MB of spaces, and a member that claims 4 GB.
  const { zipSync } = require(path.join(ROOT, 'node_modules', 'fflate'));
  const big = new Uint8Array(64 * 1024 * 1024).fill(0x20);
  big[0] = 0x7b; big[big.length - 1] = 0x7d;
  const zip = zipSync({ 'header.json': big, 'samples/1_epoch_1.json': new TextEncoder().encode('{"messages": []}') }, { level: 9 });
  // lie about the second member's uncompressed size in the central directory (offset 24 of its record)
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  for (let i = zip.length - 22; i >= 0; i--) {
    if (view.getUint32(i, true) === 0x02014b50) { view.setUint32(i + 24, 0xffffffff, true); break; }
  }
  return zip;
}

// ---------------------------------------------------------------- one input
/**
 * The input for (seed, index). `specialEvery`: every that many inputs, one of the pathological SPECIALS
 * (in turn) replaces the random input; 0 turns them off.
 */
function makeInput(seed, index, specialEvery = 2500) {
  const r = prng(seed, index);
  if (specialEvery > 0 && index % specialEvery === specialEvery - 1) {
    const s = SPECIALS[Math.floor(index / specialEvery) % SPECIALS.length];
    return s.bytes ? { kind: 'bytes', name: s.name, bytes: s.make(), special: true } : { kind: 'text', name: s.name, text: s.make(), special: true };
  }
  const { traces, zips } = seeds();
  const roll = r();
  if (roll < 0.15) return contractInput(r);
  if (roll < 0.25) {
    const base = zips.length && r.chance(0.5) ? r.pick(zips) : (() => { const t = r.pick(traces); return { name: t.name, bytes: new TextEncoder().encode(t.text) }; })();
    return { kind: 'bytes', name: base.name, bytes: mutateBytes(base.bytes, r) };
  }
  const small = traces.filter((t) => t.text.length < 16384);
  const seedTrace = r.chance(0.85) && small.length ? r.pick(small) : r.pick(traces);
  const others = small.map((t) => t.text);
  let text = seedTrace.text;
  if (roll < 0.5) text = structural(text, seedTrace.name, r);
  const keys = Object.keys(TEXT_MUTATIONS);
  const n = roll < 0.5 ? r.int(2) : 1 + r.int(4);
  for (let s = 0; s < n; s++) text = TEXT_MUTATIONS[r.pick(keys)](text, r, others);
  // sometimes the name says JSONL when it is not, or the reverse
  let name = seedTrace.name;
  if (r.chance(0.15)) name = name.replace(/\.[a-z]+$/i, r.pick(['.jsonl', '.json', '.txt', '.ndjson']));
  return { kind: 'text', name, text, lines: r.chance(0.3) };
}

module.exports = { makeInput, prng, seeds, SPECIALS, HOSTILE_SCHEMAS, ROOT, CORPUS };
