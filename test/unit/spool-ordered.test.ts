// The main thread makes no objects of a sliced file's diagnostics (issue 13, peak RSS): each thread sends its
// slice's diagnostics as the lines of an ordered spool (`spoolText`, src/cli/spool.ts), which the main thread
// writes as they are and reads back in order; and the line cutter of a slice's text (src/cli/stream.ts
// `LineCutter`) gives the same lines and offsets whatever pieces the text comes in.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type { ReportDiagnostic } from '../../src/core';
import { DiagnosticSpool, SpooledDiagnostics, spoolText } from '../../src/cli/spool';
import { LineCutter } from '../../src/cli/stream';

function diag(n: number, extra: Partial<ReportDiagnostic> = {}): ReportDiagnostic {
  return { code: 'c', severity: n % 3 === 0 ? 'error' : n % 3 === 1 ? 'warning' : 'info', message: `m${n} “é” \\ "q"\n`, line: n, column: 1, endLine: n, endColumn: 2, ...extra };
}

describe('ordered spool', () => {
  it('diagnostics sent as spoolText round-trip field for field, in order, between diagnostics added one by one', () => {
    const slices = [
      Array.from({ length: 7 }, (_, i) => diag(i, { tool: 't', callId: `id${i}`, turn: i, fingerprint: 'f'.repeat(16) })),
      [],
      Array.from({ length: 3 }, (_, i) => diag(10 + i)),
    ];
    for (const limit of [2, 1000]) {
      const spool = new DiagnosticSpool(limit);
      spool.addInOrder(diag(100));
      for (const s of slices) spool.addText(spoolText(s));
      spool.addInOrder(diag(101));
      const data = spool.done();
      assert.equal(data.ordered, true);
      const out = new SpooledDiagnostics(data);
      const expected = [diag(100), ...slices.flat(), diag(101)];
      assert.deepEqual([...out], expected, `bound ${limit}`);
      assert.deepEqual([...out], expected, 'read twice, the same');
      assert.equal(out.length, expected.length);
      assert.deepEqual(out.counts, { error: expected.filter((d) => d.severity === 'error').length, warning: expected.filter((d) => d.severity === 'warning').length, info: expected.filter((d) => d.severity === 'info').length });
      out.dispose();
      if (data.file) assert.ok(!existsSync(data.file), 'its file is removed');
    }
  });

  it('an empty slice adds nothing, and a spool never mixes span order with report order', () => {
    const t = spoolText([]);
    assert.deepEqual(t, { text: '', count: 0, counts: { error: 0, warning: 0, info: 0 } });
    const sorted = new DiagnosticSpool();
    sorted.add(diag(1), 5, 6, 0);
    assert.throws(() => sorted.addText(spoolText([diag(2)])), /not both/);
    sorted.discard();
    const ordered = new DiagnosticSpool();
    ordered.addInOrder(diag(1));
    assert.throws(() => ordered.add(diag(2), 0, 1, 0), /not both/);
    ordered.discard();
  });
});

describe('LineCutter', () => {
  const text = '\ufeff{"a":1}\r\n{"b":"é"}\n\n{"c":[1,2,3]}\r\n{"last":true}';
  function cut(pieces: string[]): { lines: [string, number][]; starts: number[] } {
    const lines: [string, number][] = [];
    const starts: number[] = [];
    const cutter = new LineCutter((t, base) => lines.push([t, base]), (o) => starts.push(o));
    for (const p of pieces) cutter.push(p);
    cutter.end();
    return { lines, starts };
  }
  const whole = cut([text]);

  it('reads a text whole as lines without their ends, offsets past the BOM', () => {
    assert.deepEqual(whole.lines, [['{"a":1}', 0], ['{"b":"é"}', 9], ['', 19], ['{"c":[1,2,3]}', 20], ['{"last":true}', 35]]);
    assert.deepEqual(whole.starts, [9, 19, 20, 35]);
  });

  it('gives the same lines and offsets for the text in pieces of every size (a line across many pieces, a \\r\\n cut)', () => {
    for (let size = 1; size <= text.length; size++) {
      const pieces: string[] = [];
      for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
      assert.deepEqual(cut(pieces), whole, `pieces of ${size}`);
    }
  });
});
