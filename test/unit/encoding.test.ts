// UTF-16 traces (core parse/encoding.ts): a JSONL or JSON trace written by Windows PowerShell's `>` (UTF-16LE with a
// BOM), or UTF-16 without one, reads as the same trace as its UTF-8 bytes, with the same findings at the same
// lines and columns: through the core's checkBytes and checkDocumentStream, and through `contract-guard check`
// (whole, streamed, gzipped, in slices on threads, from stdin).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { checkBytes, checkDocumentStream, decodeText, utf16Of, utf8Of, Utf8Transcoder } from '../../src/core';
import { ROOT } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');
const TRACE = path.join(ROOT, 'fixtures', 'traces', 'boundary.anthropic.jsonl');

function utf16(text: string, order: 'le' | 'be', bom = true): Uint8Array {
  const le = Buffer.from((bom ? '\ufeff' : '') + text, 'utf16le');
  if (order === 'le') return le;
  const be = Buffer.from(le);
  for (let i = 0; i + 1 < be.length; i += 2) [be[i], be[i + 1]] = [be[i + 1], be[i]];
  return be;
}

function transcodeInPieces(bytes: Uint8Array, cuts: number[]): string {
  const t = new Utf8Transcoder();
  const out: Uint8Array[] = [];
  let at = 0;
  for (const cut of [...cuts.map((c) => c % (bytes.length + 1))].sort((a, b) => a - b)) {
    out.push(t.push(bytes.subarray(at, cut)));
    at = cut;
  }
  out.push(t.push(bytes.subarray(at)), t.end());
  return Buffer.concat(out).toString('utf8');
}

describe('UTF-16 traces', () => {
  it('tells UTF-16 by its BOM or by a JSON text\'s zero bytes, and nothing else', () => {
    assert.equal(utf16Of(Uint8Array.from([0xff, 0xfe, 0x7b, 0])), 'utf-16le');
    assert.equal(utf16Of(Uint8Array.from([0xfe, 0xff, 0, 0x7b])), 'utf-16be');
    assert.equal(utf16Of(utf16('{"a":1}', 'le', false)), 'utf-16le');
    assert.equal(utf16Of(utf16('[\n{"a":1}', 'be', false)), 'utf-16be');
    assert.equal(utf16Of(Buffer.from('{"role":"user"}')), undefined);
    assert.equal(utf16Of(Buffer.from('\ufeff{"a":1}')), undefined); // a UTF-8 BOM
    assert.equal(utf16Of(Uint8Array.from([0xff, 0xfe, 0, 0, 0x7b, 0, 0, 0])), undefined); // UTF-32LE
    assert.equal(utf16Of(Uint8Array.from([0x1f, 0x8b, 8, 0])), undefined); // gzip
  });

  it('transcodes in pieces cut anywhere, surrogate pairs and all (property)', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), fc.constantFrom('le' as const, 'be' as const), (s, cuts, bom, order) => {
      const text = `{"q":${JSON.stringify(s)}}\n`;
      assert.equal(transcodeInPieces(utf16(text, order, bom), cuts), text);
      assert.equal(transcodeInPieces(Buffer.from(text), cuts), text); // UTF-8 passes untouched
      assert.equal(decodeText(utf16(text, order, bom)), text);
      assert.equal(Buffer.from(utf8Of(utf16(text, order, bom))).toString('utf8'), text);
    }), { numRuns: 300 });
  });

  it('checkBytes and checkDocumentStream read a UTF-16 trace as its UTF-8 one', async () => {
    const text = readFileSync(TRACE, 'utf8');
    const want = checkBytes(Buffer.from(text), { fileName: 'trace.jsonl' });
    assert.ok(want.calls > 10 && want.findings.length > 3);
    for (const order of ['le', 'be'] as const) {
      for (const bom of [true, false]) {
        const got = checkBytes(utf16(text, order, bom), { fileName: 'trace.jsonl' });
        assert.equal(got.text, text);
        assert.deepEqual(got.findings, want.findings, `${order} bom=${bom}`);
      }
    }
    // one JSON document (an array of the trace's records), streamed in 3-byte pieces
    const doc = `[${text.trim().split('\n').join(',\n')}]`;
    const whole = checkBytes(Buffer.from(doc), { fileName: 'trace.json' });
    const bytes = utf16(doc, 'le');
    const streamed = await checkDocumentStream(async function* () {
      for (let i = 0; i < bytes.length; i += 3) yield bytes.subarray(i, i + 3);
    }, { fileName: 'trace.json' });
    assert.equal(streamed.result.calls, whole.calls);
    assert.deepEqual(streamed.result.findings, whole.findings);
  });

  describe('contract-guard check', () => {
    let dir = '';
    before(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'cg-utf16-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    const check = (args: string[], env: NodeJS.ProcessEnv = {}, input?: Uint8Array) => {
      const r = spawnSync(process.execPath, [CLI, 'check', ...args, '--contracts', 'fixtures/contracts', '--format', 'json'], { cwd: ROOT, encoding: 'utf8', input, maxBuffer: 1 << 28, env: { ...process.env, ...env } });
      assert.ok(r.status === 0 || r.status === 1, r.stderr);
      const file = JSON.parse(r.stdout).files[0];
      return { format: file.format, calls: file.calls, diagnostics: file.diagnostics.map((d: { path?: string }) => ({ ...d, path: undefined })) };
    };

    it('a UTF-16 file whole, gzipped, from stdin and in slices on threads: the UTF-8 file\'s report', () => {
      const text = readFileSync(TRACE, 'utf8');
      const plain = path.join(dir, 'utf8.jsonl');
      writeFileSync(plain, text);
      const want = check([plain]);
      assert.equal(want.format, 'anthropic');
      const le = path.join(dir, 'powershell.jsonl');
      writeFileSync(le, utf16(text, 'le'));
      assert.deepEqual(check([le]), want);
      const gz = path.join(dir, 'powershell.jsonl.gz');
      writeFileSync(gz, gzipSync(utf16(text, 'be', false)));
      assert.deepEqual(check([gz]), want);
      assert.deepEqual(check(['-'], {}, utf16(text, 'le')), want);

      // many lines, cut into slices for two threads: a fine-tune file of records each standing alone
      const line = JSON.stringify({ messages: [{ role: 'user', content: 'é ✓ 𝄞' }, { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search_repo', arguments: '{"q": 7}' } }] }] });
      const many = Array.from({ length: 4000 }, () => line).join('\n') + '\n';
      const big8 = path.join(dir, 'many.jsonl');
      const big16 = path.join(dir, 'many16.jsonl');
      writeFileSync(big8, many);
      writeFileSync(big16, utf16(many, 'le'));
      const sliced = { CONTRACT_GUARD_THREADS: 'always', CONTRACT_GUARD_SLICE_BYTES: String(64 << 10) };
      const wantMany = check([big8, '--jobs', '2'], sliced);
      assert.equal(wantMany.calls, 4000);
      assert.deepEqual(check([big16, '--jobs', '2'], sliced), wantMany);
    });
  });
});
