// Side-effect amnesia: a write whose digest did not move, or a later call that relies on a digest the artifact
// no longer has. Digests are tracked per artifact (the path or id the call names), as short strings.
import type { ToolContract } from '../contracts/types';
import type { ToolCall, ToolResult } from '../model';
import { okExitCodesFor, readResult, resultFailed, type ResultReading } from '../results';
import type { Anchor, JsonPath } from '../parse/doc';
import type { Check } from './check';
import { ARTIFACT_KEYS, artifactOf, isMutating } from './mutation';
import { pairingOf } from './pairing';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keys (lower-cased, without `_` and `-`) that hold a digest of the artifact. */
const DIGEST = new Set(['sha256', 'sha1', 'sha512', 'sha', 'md5', 'digest', 'hash', 'etag', 'checksum', 'contenthash', 'contentsha256', 'blobsha', 'filehash']);
/** Prefixes that make a digest argument a precondition ("the version I expect"). */
const EXPECT = ['expected', 'base', 'parent', 'old', 'prev', 'previous', 'if', 'current', 'known', 'from'];

function norm(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}

/** Is this key a digest the caller passes as "the version I expect" (`expected_sha256`, `if_match`, `base_hash`)? */
export function isExpectedDigestKey(key: string): boolean {
  const k = norm(key);
  if (k === 'ifmatch') return true;
  for (const p of EXPECT) if (k.startsWith(p) && DIGEST.has(k.slice(p.length))) return true;
  return false;
}

function isDigestKey(key: string): boolean {
  return DIGEST.has(norm(key));
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

/** The digest a result reports (in the body, or one level inside `result`/`data`/`file`/...), and the artifact
 *  named next to it. */
function digestIn(body: unknown): FoundDigest | undefined {
  const look = (o: Obj, path: JsonPath): FoundDigest | undefined => {
    for (const k of Object.keys(o)) {
      if (!isDigestKey(k)) continue;
      const d = digestText(o[k]);
      if (!d) continue;
      const named = ARTIFACT_KEYS.map((a) => o[a]).find((v) => typeof v === 'string' && v !== '') as string | undefined;
      return { digest: d, path: [...path, k], artifact: named };
    }
    return undefined;
  };
  if (!isObj(body)) return undefined;
  const top = look(body, []);
  if (top) return top;
  for (const k of ['result', 'data', 'file', 'artifact', 'content', 'commit', 'object']) {
    if (isObj(body[k])) {
      const inner = look(body[k] as Obj, [k]);
      if (inner) return { ...inner, artifact: inner.artifact ?? (ARTIFACT_KEYS.map((a) => body[a]).find((v) => typeof v === 'string') as string | undefined) };
    }
  }
  return undefined;
}

interface ArtifactState {
  /** The digest the artifact has now, as far as the trace says (undefined: changed, new digest unknown). */
  current?: string;
  /** Digests it had before (a few, newest last). */
  older: string[];
  /** The call that last set it, for the message. */
  by: number;
}

const KEEP = 8;

export const staleDigest: Check = {
  code: 'stale-digest',
  severity: 'warning',
  title: 'A mutation that did not move the digest, or a call relying on a digest that is no longer current',
  description: 'Digests (`sha256`, `digest`, `hash`, `etag`, `checksum`, ...) reported in results are tracked per artifact, keyed by the path or id the call names (`path`, `file_path`, the argument a contract\'s `mutates` names, ...). A mutating call (contract `mutates`, or a writer by name) whose result reports the same digest the artifact had before claimed a change that did not happen; the finding is on that digest. A later call that passes a digest it had earlier (`expected_sha256`, `if_match`, `base_hash`, ...) for an artifact that has since changed works on a stale snapshot; the finding is on the digest it passes. Failed calls change nothing. Short digests match their full form (7+ characters).',
  example: { input: 'write_note {"path": "notes/a.md"} -> {"sha256": "9f2c1e04…"} twice', message: 'write_note claimed a write to notes/a.md; digest 9f2c1e04 unchanged' },
  run(ctx) {
    const { calls, results } = ctx.session;
    if (results.length === 0) return;
    const pairing = pairingOf(ctx);
    const state = new Map<string, ArtifactState>();
    let next = 0;
    for (const call of calls) {
      // What the model could have seen before making this call: results that arrived in earlier turns.
      while (next < results.length && results[next].turn < call.turn) apply(results[next], pairing.callOf[next]), next++;
      checkExpected(call);
    }
    while (next < results.length) apply(results[next], pairing.callOf[next]), next++;

    function contractOf(call: ToolCall): ToolContract | undefined {
      return ctx.contractFor(call.name)?.contract;
    }

    function checkExpected(call: ToolCall): void {
      const args = ctx.effectiveArgs(call).args;
      if (!isObj(args)) return;
      let artifact: string | undefined;
      for (const k of Object.keys(args)) {
        if (!isExpectedDigestKey(k)) continue;
        const passed = digestText(args[k]);
        if (!passed) continue;
        artifact ??= artifactOf(args, contractOf(call));
        const st = artifact === undefined ? undefined : state.get(artifact);
        if (!st || (st.current !== undefined && sameDigest(st.current, passed))) continue;
        if (!st.older.some((d) => sameDigest(d, passed))) continue; // a digest we never saw: cannot tell
        const by = calls[st.by];
        const now = st.current === undefined ? `changed since by ${by.name} (turn ${by.turn}), new digest unknown` : `current is ${short(st.current)} (since ${by.name}, turn ${by.turn})`;
        ctx.report({
          code: 'stale-digest',
          message: `${call.name} uses digest ${short(passed)} of ${artifact}, ${now}`,
          at: ctx.argAnchor(call, [k]),
          call,
          related: [{ at: by.nameAt, message: `${artifact} changed here` }],
        });
      }
    }

    function apply(result: ToolResult, call: ToolCall | undefined): void {
      if (!call) return;
      const contract = contractOf(call);
      if (resultFailed(result, okExitCodesFor(call.name, contract?.okExitCodes))) return;
      const mutating = isMutating(call, contract);
      const reading = readResult(result);
      const found = digestIn(reading.body);
      const args = ctx.effectiveArgs(call).args;
      const artifact = artifactOf(args, contract) ?? found?.artifact;
      if (artifact === undefined) return;
      const st = state.get(artifact);
      if (!found) {
        // A write that reports no digest still changed the artifact: its old digests are now stale.
        if (mutating && st?.current !== undefined) {
          push(st, st.current);
          st.current = undefined;
          st.by = call.index;
        }
        return;
      }
      if (mutating) {
        const expected = isObj(args) ? Object.keys(args).filter(isExpectedDigestKey).map((k) => digestText(args[k])).find((d) => d) : undefined;
        const before = st?.current ?? expected;
        if (before !== undefined && sameDigest(before, found.digest)) {
          ctx.report({
            code: 'stale-digest',
            message: `${call.name} claimed a write to ${artifact}; digest ${short(found.digest)} unchanged`,
            at: anchorIn(reading, found.path, result),
            call,
            related: st ? [{ at: calls[st.by].nameAt, message: `digest ${short(before)} of ${artifact} reported after this call` }] : undefined,
          });
        }
      }
      if (!st) state.set(artifact, { current: found.digest, older: [], by: call.index });
      else if (st.current === undefined || !sameDigest(st.current, found.digest)) {
        if (st.current !== undefined) push(st, st.current);
        st.current = found.digest;
        st.by = call.index;
      }
    }
  },
};

function push(st: ArtifactState, d: string): void {
  st.older.push(d);
  if (st.older.length > KEEP) st.older.shift();
}

function anchorIn(reading: ResultReading, path: JsonPath, result: ToolResult): Anchor {
  return reading.at ? { doc: reading.at.doc, path: [...reading.at.path, ...path] } : result.at;
}

