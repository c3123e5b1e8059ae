// Side-effect amnesia: a write whose digest did not move, or a later call that relies on a digest the artifact
// no longer has. Digests are tracked per artifact (the path or id the call names), as short strings.
import type { Span, ToolCall, ToolResult } from '../model';
import { resultBodyAnchor } from '../results';
import { spanOf, type Anchor, type JsonPath } from '../parse/doc';
import type { Check } from './check';
import { ARTIFACT_KEYS, artifactOf, claimsWrite } from './mutation';
import { isPlainObject, type Obj } from '../objects';


/** Keys (lower-cased, without `_` and `-`) that hold a digest of the artifact. */
const DIGEST = new Set(['sha256', 'sha1', 'sha512', 'sha', 'md5', 'digest', 'hash', 'etag', 'checksum', 'contenthash', 'contentsha256', 'blobsha', 'filehash']);
/** Prefixes that make a digest argument a precondition ("the version I expect"). */
const EXPECT = ['expected', 'base', 'parent', 'old', 'prev', 'previous', 'if', 'current', 'known', 'from'];

function norm(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}

const DIGESTY = /sha|hash|digest|etag|md5|checksum|match/i;
const DIGEST_WORD = /sha|hash|digest|etag|md5|checksum/i;
const expectedKeys = new Map<string, boolean>();

/** Is this key a digest the caller passes as "the version I expect" (`expected_sha256`, `if_match`, `base_hash`)? */
export function isExpectedDigestKey(key: string): boolean {
  let yes = expectedKeys.get(key);
  if (yes === undefined) {
    const k = norm(key);
    yes = k === 'ifmatch' || (DIGESTY.test(k) && EXPECT.some((p) => k.startsWith(p) && DIGEST.has(k.slice(p.length))));
    if (expectedKeys.size > 4096) expectedKeys.clear();
    expectedKeys.set(key, yes);
  }
  return yes;
}

const digestKeys = new Map<string, boolean>();

function isDigestKey(key: string): boolean {
  let yes = digestKeys.get(key);
  if (yes === undefined) {
    yes = DIGEST.has(norm(key));
    if (digestKeys.size > 4096) digestKeys.clear();
    digestKeys.set(key, yes);
  }
  return yes;
}

/** A digest value as comparable text: quotes, `W/` and `sha256:` prefixes dropped, lower case. */
function digestText(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const s = v.trim().replace(/^W\//, '').replace(/^"|"$/g, '').replace(/^(sha256|sha1|sha512|md5):/i, '').toLowerCase();
  return s.length >= 3 ? s : undefined;
}

/** Equal, or one a (7+ character) prefix of the other: tools often print short digests. */
function sameDigest(a: string, b: string): boolean {
  if (a === b) return true;
  return Math.min(a.length, b.length) >= 7 && (a.startsWith(b) || b.startsWith(a));
}

function short(d: string): string {
  return d.length > 8 ? d.slice(0, 8) : d;
}

interface FoundDigest {
  digest: string;
  path: JsonPath;
  artifact?: string;
}

const NESTS = ['result', 'data', 'file', 'artifact', 'content', 'commit', 'object'];

const ARTIFACT_RANK = new Map(ARTIFACT_KEYS.map((k, i) => [k, i]));

/** The artifact an object names: its most specific path-like key (few keys: walk them, not the list). */
function namedIn(o: Obj): string | undefined {
  let best: string | undefined;
  let rank = Infinity;
  for (const k in o) {
    const r = ARTIFACT_RANK.get(k);
    if (r === undefined || r >= rank) continue;
    const v = o[k];
    if (typeof v === 'string' && v !== '') {
      best = v;
      rank = r;
    }
  }
  return best;
}

function digestAt(o: Obj, nest?: string): FoundDigest | undefined {
  for (const k in o) {
    if (!isDigestKey(k)) continue;
    const d = digestText(o[k]);
    if (!d) continue;
    return { digest: d, path: nest === undefined ? [k] : [nest, k], artifact: namedIn(o) };
  }
  return undefined;
}

/** The digest a result reports (in the body, or one level inside `result`/`data`/`file`/...), and the artifact
 *  named next to it. */
function digestIn(body: unknown): FoundDigest | undefined {
  if (!isPlainObject(body)) return undefined;
  const top = digestAt(body);
  if (top) return top;
  for (const k of NESTS) {
    const inner = body[k];
    if (!isPlainObject(inner)) continue;
    const found = digestAt(inner, k);
    if (found) return { ...found, artifact: found.artifact ?? namedIn(body) };
  }
  return undefined;
}

/** Claude Code's structured `toolUseResult` of the line holding a result: for Write and Edit it carries
 *  `filePath` and the `structuredPatch` of what changed. */
function structuredEvidence(result: ToolResult): { at: Anchor; filePath: string } | undefined {
  const path = result.at.path;
  let line: unknown = result.at.doc.value;
  let k = path.lastIndexOf('message');
  if (k < 0 && path[path.length - 1] === 'toolUseResult') k = path.length - 1;
  if (k < 0) return undefined;
  for (let i = 0; i < k; i++) line = isPlainObject(line) || Array.isArray(line) ? (line as Record<string | number, unknown>)[path[i]] : undefined;
  const tur = isPlainObject(line) ? line.toolUseResult : undefined;
  if (!isPlainObject(tur) || !Array.isArray(tur.structuredPatch) || tur.structuredPatch.length > 0) return undefined;
  // A create writes a whole new file: an empty patch says nothing there. An update (Write) or an edit that moved
  // no line did not change the file.
  if (tur.type === 'create' || typeof tur.filePath !== 'string') return undefined;
  return { at: { doc: result.at.doc, path: [...path.slice(0, k), 'toolUseResult', 'structuredPatch'] }, filePath: tur.filePath };
}

interface ArtifactState {
  /** The digest the artifact has now, as far as the trace says (undefined: changed, new digest unknown). */
  current?: string;
  /** Digests it had before (a few, newest last). */
  older: string[];
  /** The call that last set it, for the message: its index, name, turn and where its name is (an anchor while
   *  its segment is checked, a span after). */
  by: number;
  byName: string;
  byTurn: number;
  byAt?: Anchor;
  bySpan?: Span;
}

const KEEP = 8;
/** Artifacts tracked across the segments of a long session at most (the least recently changed are forgotten). */
export const MAX_ARTIFACTS = 50_000;

function setBy(st: ArtifactState, call: ToolCall): void {
  st.by = call.index;
  st.byName = call.name;
  st.byTurn = call.turn;
  st.byAt = call.nameAt;
  st.bySpan = undefined;
}

function byPlace(st: ArtifactState, message: string): { at: Anchor; message: string } | { span: Span; message: string } {
  return st.byAt ? { at: st.byAt, message } : { span: st.bySpan!, message };
}

export const staleDigest: Check = {
  code: 'stale-digest',
  severity: 'warning',
  gate: 'bytes',
  title: 'A mutation that did not move the digest, or a call relying on a digest that is no longer current',
  description: 'Digests (`sha256`, `digest`, `hash`, `etag`, `checksum`, ...) reported in results are tracked per artifact, keyed by the path or id the call names (`path`, `file_path`, the argument a contract\'s `mutates` names, ...). A mutating call (contract `mutates`, or a writer by name) whose result reports the same digest the artifact had before claimed a change that did not happen; the finding is on that digest. A later call that passes a digest it had earlier (`expected_sha256`, `if_match`, `base_hash`, ...) for an artifact that has since changed works on a stale snapshot; the finding is on the digest it passes. Failed calls change nothing. Short digests match their full form (7+ characters).',
  example: { input: 'write_note {"path": "notes/a.md"} -> {"sha256": "9f2c1e04…"} twice', message: 'write_note claimed a write to notes/a.md; digest 9f2c1e04 unchanged' },
  run(ctx) {
    const { calls, results } = ctx.session;
    const state = ctx.state('stale-digest', () => new Map<string, ArtifactState>());
    if (results.length === 0 && state.size === 0) return;
    const pairing = ctx.pairing;
    let next = 0;
    for (const call of calls) {
      // What the model could have seen before making this call: results that arrived in earlier turns.
      while (next < results.length && results[next].turn < call.turn) apply(next++);
      if (state.size > 0) checkExpected(call); // no digest known yet: nothing can be stale
    }
    while (next < results.length) apply(next++);
    if (!ctx.final) carry();

    /** The end of a segment: the calls that set digests are kept as facts, and a bounded number of artifacts. */
    function carry(): void {
      for (const st of state.values()) {
        if (!st.byAt) continue;
        st.bySpan = spanOf(st.byAt);
        st.byAt = undefined;
      }
      if (state.size <= MAX_ARTIFACTS) return;
      ctx.limit(`stale-digest: more than ${MAX_ARTIFACTS} artifacts with digests; the least recently seen are forgotten`);
      for (const k of state.keys()) {
        if (state.size <= MAX_ARTIFACTS) break;
        state.delete(k);
      }
    }

    function checkExpected(call: ToolCall): void {
      const args = pairing.args(call);
      if (!isPlainObject(args)) return;
      let artifact: string | undefined;
      for (const k in args) {
        if (!isExpectedDigestKey(k)) continue;
        const passed = digestText(args[k]);
        if (!passed) continue;
        artifact ??= artifactOf(args, pairing.contract(call.name));
        const st = artifact === undefined ? undefined : state.get(artifact);
        if (!st || (st.current !== undefined && sameDigest(st.current, passed))) continue;
        if (!st.older.some((d) => sameDigest(d, passed))) continue; // a digest we never saw: cannot tell
        const now = st.current === undefined ? `changed since by ${st.byName} (turn ${st.byTurn}), new digest unknown` : `current is ${short(st.current)} (since ${st.byName}, turn ${st.byTurn})`;
        ctx.report({
          code: 'stale-digest',
          message: `${call.name} uses digest ${short(passed)} of ${artifact}, ${now}`,
          at: ctx.argAnchor(call, [k]),
          call,
          related: [byPlace(st, `${artifact} changed here`)],
        });
      }
    }

    function apply(i: number): void {
      const call = pairing.callOf(i);
      if (!call) return;
      const result = results[i];
      const mutating = pairing.mutating(call);
      if (mutating && (call.name === 'Edit' || call.name === 'Write' || call.name === 'MultiEdit')) {
        const empty = structuredEvidence(results[i]);
        if (empty) {
          ctx.report({ code: 'stale-digest', message: `${call.name} claimed a write to ${empty.filePath}; its structured patch is empty (no line changed)`, at: empty.at, call });
          return;
        }
      }
      // A payload string without a digest word anywhere cannot report one: no need to look inside.
      const payload = result.payload;
      const reading = typeof payload === 'string' && !DIGEST_WORD.test(payload) ? undefined : pairing.reading(i);
      const found = reading && digestIn(reading.body);
      // Nothing to learn from a read that reports no digest; a failed call changed nothing, nor did one still
      // waiting for input (MCP input_required).
      if ((!mutating && !found) || pairing.failed(i) || pairing.inputRequired(i)) return;
      const contract = pairing.contract(call.name);
      const args = pairing.args(call);
      const artifact = artifactOf(args, contract) ?? found?.artifact;
      if (artifact === undefined) return;
      const st = state.get(artifact);
      if (!found) {
        // A write that reports no digest still changed the artifact: its old digests are now stale.
        if (mutating && st?.current !== undefined) {
          push(st, st.current);
          st.current = undefined;
          setBy(st, call);
          touch(artifact, st);
        }
        return;
      }
      if (mutating && claimsWrite(call, contract)) {
        const expected = isPlainObject(args) ? Object.keys(args).filter(isExpectedDigestKey).map((k) => digestText(args[k])).find((d) => d) : undefined;
        const before = st?.current ?? expected;
        if (before !== undefined && sameDigest(before, found.digest)) {
          ctx.report({
            code: 'stale-digest',
            message: `${call.name} claimed a write to ${artifact}; digest ${short(found.digest)} unchanged`,
            at: resultBodyAnchor(result, found.path),
            call,
            related: st ? [byPlace(st, `digest ${short(before)} of ${artifact} reported after this call`)] : undefined,
          });
        }
      }
      if (!st) {
        const fresh: ArtifactState = { current: found.digest, older: [], by: call.index, byName: call.name, byTurn: call.turn, byAt: call.nameAt };
        state.set(artifact, fresh);
      } else if (st.current === undefined || !sameDigest(st.current, found.digest)) {
        if (st.current !== undefined) push(st, st.current);
        st.current = found.digest;
        setBy(st, call);
        touch(artifact, st);
      }
    }

    /** Most recently changed last, so a cap forgets the artifacts untouched longest (only across segments). */
    function touch(artifact: string, st: ArtifactState): void {
      if (ctx.whole) return;
      state.delete(artifact);
      state.set(artifact, st);
    }
  },
};

function push(st: ArtifactState, d: string): void {
  st.older.push(d);
  if (st.older.length > KEEP) st.older.shift();
}


