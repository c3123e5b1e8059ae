// Diagnostics longer than a read of the spool's file (64 KB): a run is read back a piece at a time, and a line cut
// by a read waits in pieces until its end is read (spool.ts RunReader), joined once. Read back whole and in order,
// a UTF-8 sequence cut by a read included, in each kind of spool.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { jsonDiagnosticText, type ReportDiagnostic } from '../../src/core';
import { DiagnosticSpool, SpooledDiagnostics, spoolText } from '../../src/cli/spool';

/** A message of about `size` characters: multi-byte characters throughout, so reads cut some of them. */
function long(n: number, size: number): ReportDiagnostic {
  const unit = `é${n}😀x`;
  return { code: 'c', severity: 'error', message: unit.repeat(Math.ceil(size / unit.length)), line: n, column: 1, endLine: n, endColumn: 2 };
}

const short = (n: number): ReportDiagnostic => ({ code: 'c', severity: 'warning', message: `m${n}`, line: n, column: 1, endLine: n, endColumn: 2 });

describe('spool of diagnostics longer than one read of its file', () => {
  // long ones between short ones, one of many reads (1.5 MB), one of just over a read, one right at its end
  const all = [short(0), long(1, 1_500_000), short(2), short(3), long(4, 70_000), long(5, 200_000), short(6)];

  it('an ordered spool of printed JSON reads back each diagnostic and its text whole', () => {
    const spool = new DiagnosticSpool();
    spool.addText(spoolText(all.slice(0, 3), true));
    spool.addText(spoolText(all.slice(3), true));
    const out = new SpooledDiagnostics(spool.done());
    assert.deepEqual([...out], all);
    assert.deepEqual([...out.jsonText()!], all.map(jsonDiagnosticText));
    out.dispose();
  });

  it('an ordered spool of plain lines reads them back whole', () => {
    const spool = new DiagnosticSpool(2);
    for (const d of all) spool.addInOrder(d);
    const out = new SpooledDiagnostics(spool.done());
    assert.deepEqual([...out], all);
    out.dispose();
  });

  it('a spool sorted by span merges runs of long lines back in order', () => {
    const spool = new DiagnosticSpool(2);
    // made out of order: the spans put them back
    const order = [6, 1, 3, 0, 5, 2, 4];
    order.forEach((i, k) => spool.add(all[i], i * 10, i * 10 + 1, k));
    const out = new SpooledDiagnostics(spool.done());
    assert.equal(out.data.runs.length, 3, 'three runs written, one item left in memory');
    assert.deepEqual([...out], all);
    out.dispose();
  });
});
