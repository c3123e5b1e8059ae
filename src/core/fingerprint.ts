// Canonical JSON and call fingerprints: one home for "are these two calls (or results) the same?".
// Canonical = keys sorted at every depth, numbers by value (2, 2.0 and 2e0 are one number), strings exact.
// Fingerprints are compact strings: long canonical forms are hashed, so cross-call state never keeps documents.
import type { ToolCall } from './model';
import type { Anchor, JsonPath } from './parse/doc';
import { hashPair } from './id-table';
import { RecentCache } from './recent';

/** True when every object in `v` already has its keys in sorted order (then JSON.stringify is canonical). */
function keysSorted(v: unknown, depth = 0): boolean {
  if (v === null || typeof v !== 'object') return true;
  if (depth > 64) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!keysSorted(v[i], depth + 1)) return false;
    return true;
  }
  let prev: string | undefined;
  for (const k in v as Record<string, unknown>) {
    if (prev !== undefined && !(prev < k)) return false;
    const x = (v as Record<string, unknown>)[k];
    if (x === undefined || (typeof x === 'number' && !Number.isFinite(x))) return false;
    if (!keysSorted(x, depth + 1)) return false;
    prev = k;
  }
  return true;
}

/** JSON text with object keys sorted at every depth. */
export function canonicalJson(v: unknown): string {
  // Fast path: already in canonical order, so the native serializer writes the canonical text.
  return keysSorted(v) ? JSON.stringify(v) ?? 'null' : canonicalSlow(v);
}

function canonicalSlow(v: unknown): string {
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'number') return Number.isFinite(v) ? String(v === 0 ? 0 : v) : 'null';
    return JSON.stringify(v) ?? 'null';
  }
  if (Array.isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) s += (i ? ',' : '') + canonicalPart(v[i]);
    return s + ']';
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  sortKeys(keys);
  let s = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    if (o[k] === undefined) continue;
    s += (s.length > 1 ? ',' : '') + JSON.stringify(k) + ':' + canonicalPart(o[k]);
  }
  return s + '}';
}

/** A member of an object or array being written: a subtree already in canonical order is written natively (an
 *  object with unsorted keys rarely has unsorted ones all the way down). */
function canonicalPart(v: unknown): string {
  return typeof v === 'object' && v !== null && keysSorted(v) ? JSON.stringify(v) : canonicalSlow(v);
}

/** Sort keys in place as `sort()` would (distinct strings, by UTF-16 code units): few keys by insertion, which
 *  allocates nothing (the built-in sort copies the array into a work area). */
function sortKeys(keys: string[]): void {
  const n = keys.length;
  if (n > 16) {
    keys.sort();
    return;
  }
  for (let i = 1; i < n; i++) {
    const k = keys[i];
    let j = i - 1;
    while (j >= 0 && keys[j] > k) {
      keys[j + 1] = keys[j];
      j--;
    }
    keys[j + 1] = k;
  }
}

/** A 64-bit FNV-1a style hash of a string, as 16 hex digits (two independent 32-bit lanes). */
export function hash64(s: string): string {
  hashPair(s, lanes);
  return hex16(lanes[0], lanes[1]);
}

const lanes = new Uint32Array(2);

const HEX = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/** 16 lower-case hex digits of two 32-bit values, as one flat string (toString(16).padStart is 20 times slower). */
function hex16(a: number, b: number): string {
  return String.fromCharCode(HEX[(a >>> 28) & 15], HEX[(a >>> 24) & 15], HEX[(a >>> 20) & 15], HEX[(a >>> 16) & 15],
    HEX[(a >>> 12) & 15], HEX[(a >>> 8) & 15], HEX[(a >>> 4) & 15], HEX[a & 15],
    HEX[(b >>> 28) & 15], HEX[(b >>> 24) & 15], HEX[(b >>> 20) & 15], HEX[(b >>> 16) & 15],
    HEX[(b >>> 12) & 15], HEX[(b >>> 8) & 15], HEX[(b >>> 4) & 15], HEX[b & 15]);
}

/** Canonical forms up to this length are kept verbatim; longer ones are hashed (with their length). */
const VERBATIM = 512;

/** A compact, comparable key for a JSON value. */
export function valueKey(v: unknown): string {
  const c = canonicalJson(v);
  return c.length <= VERBATIM ? c : `#${hash64(c)}:${c.length}`;
}

/** The fingerprint of a call: tool name + canonical arguments (or the raw text when they did not decode). */
export function callFingerprint(name: string, args: unknown, raw?: string): string {
  return name + '\u0000' + (args === undefined ? '!' + valueKey(raw ?? '') : valueKey(args));
}

/** A short, stable hex name for a fingerprint (fixture file names): 12 hex digits of its hash64. */
export function shortFingerprint(fingerprint: string): string {
  return hash64(fingerprint).slice(0, 12);
}

// A finding's fingerprint, built on its call's.

const NO_PATH: JsonPath = [];

/** `path` after `prefix`, joined with '/' (what `path.slice(prefix.length).join('/')` gives), or undefined when
 *  `prefix` does not start it: written out, as every finding asks (no sliced copy per finding). */
function after(path: JsonPath, prefix: JsonPath): string | undefined {
  const n = prefix.length;
  if (path.length < n) return undefined;
  for (let i = 0; i < n; i++) if (path[i] !== prefix[i]) return undefined;
  let rest = '';
  for (let i = n; i < path.length; i++) rest += (i > n ? '/' : '') + path[i];
  return rest;
}

/** Where in its call a finding points, independent of the call's position in the file. */
function placeInCall(at: Anchor, call: ToolCall): string {
  const part = at.part === 'key' ? '#key' : '';
  if (call.argsDoc && at.doc === call.argsDoc) {
    const rel = after(at.path, call.argsPath ?? NO_PATH);
    if (rel !== undefined) return 'args/' + rel + part;
  }
  if (at.doc === call.nameAt.doc && at.path.length === call.nameAt.path.length && after(at.path, call.nameAt.path) !== undefined) return 'name';
  if (at.doc === call.argsAt.doc) {
    const rel = after(at.path, call.argsAt.path);
    if (rel !== undefined) return 'args/' + rel + part;
  }
  return 'other' + part;
}

// One call can carry thousands of findings (every item of a long array mistyped): its fingerprint is computed once
// while its findings are emitted (the last few calls are remembered). Pairing asks the same of the session's calls
// just before (duplicate-fingerprint), so the findings of a short session find theirs here.
const callPrints = new RecentCache<ToolCall, string>(8);

function printOf(c: ToolCall): string {
  return callFingerprint(c.name, c.args, c.argumentsRaw);
}

/** callFingerprint of a call's own name, arguments and raw text, remembered for the last few calls. */
export function callPrint(c: ToolCall): string {
  return callPrints.get(c, printOf);
}

/** The fingerprint of a finding, 16 hex digits that survive lines moving: its code, its tool, the call's fingerprint
 *  and where in the call it points (an argument path, the name, ...), never a line or an offset. Findings with no
 *  call (parse errors, orphan results) use their message. Baselines and SARIF match findings by it. */
export function findingFingerprint(p: { code: string; message: string; at?: Anchor; call?: ToolCall }): string {
  const c = p.call;
  // joined as `[...].join('\u0000')` would, without the array
  const key = c && p.at ? p.code + '\u0000' + c.name + '\u0000' + callPrint(c) + '\u0000' + placeInCall(p.at, c) : p.code + '\u0000' + p.message;
  return hash64(key);
}
