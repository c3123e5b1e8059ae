// A sliced file's diagnostics printed on its threads as `--format json` prints them (spool.ts SpoolText.json,
// EntrySettings.json): the main thread writes that text as it is, and the report is byte for byte the one made by
// printing each diagnostic there.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { jsonDiagnosticText, jsonWriter, type ReportDiagnostic, type ReportEntry } from '../../src/core';
import { DiagnosticSpool, SpooledDiagnostics, spoolText } from '../../src/cli/spool';

function diag(n: number, extra: Partial<ReportDiagnostic> = {}): ReportDiagnostic {
  return { code: 'c', severity: n % 3 === 0 ? 'error' : n % 3 === 1 ? 'warning' : 'info', message: `m${n} “é” \\ "q"\n\u001e`, line: n, column: 1, endLine: n, endColumn: 2, ...extra };
}

function written(entry: ReportEntry): string {
  const w = jsonWriter();
  return w.start() + [...w.file(entry)].join('') + w.end({ files: 1, calls: entry.calls, errors: 0, warnings: 0, infos: 0 } as never);
}

describe('spool of diagnostics printed as the JSON report prints them', () => {
  const slices = [
    Array.from({ length: 9 }, (_, i) => diag(i, { tool: 't', callId: `id${i}`, turn: i, fingerprint: 'f'.repeat(16), related: [{ message: 'r', line: 1, column: 2, endLine: 1, endColumn: 3 }] } as Partial<ReportDiagnostic>)),
    [],
    Array.from({ length: 4 }, (_, i) => diag(20 + i)),
  ];
  const all = slices.flat();

  for (const limit of [2, 1000]) {
    it(`reads back the same diagnostics and the report's own text of each (bound ${limit})`, () => {
      const spool = new DiagnosticSpool(limit);
      for (const s of slices) spool.addText(spoolText(s, true));
      const data = spool.done();
      assert.equal(data.json, true);
      const out = new SpooledDiagnostics(data);
      assert.deepEqual([...out], all, 'as objects (a baseline or another writer reads them so)');
      assert.deepEqual([...out.jsonText()!], all.map(jsonDiagnosticText));
      assert.deepEqual([...out.jsonText()!], all.map(jsonDiagnosticText), 'read twice, the same');
      assert.deepEqual(out.counts, { error: all.filter((d) => d.severity === 'error').length, warning: all.filter((d) => d.severity === 'warning').length, info: all.filter((d) => d.severity === 'info').length });
      const entry = { path: 'a.jsonl', format: 'f', calls: 3 };
      const printed = written({ ...entry, diagnostics: out, jsonText: out.jsonText() });
      assert.equal(printed, written({ ...entry, diagnostics: all }));
      assert.ok(!printed.includes('jsonText'), 'the printed text is not a field of the file');
      assert.ok(printed.includes('\\u001e'), 'a separator character inside a message is escaped, never raw');
      out.dispose();
      if (data.file) assert.ok(!existsSync(data.file), 'its file is removed');
    });
  }

  it('a plain spool has no printed text; a spool never mixes printed diagnostics with plain ones', () => {
    const plain = new DiagnosticSpool();
    plain.addText(spoolText([diag(1)]));
    assert.equal(new SpooledDiagnostics(plain.done()).jsonText(), undefined);
    plain.discard();
    const mixed = new DiagnosticSpool();
    mixed.addText(spoolText([diag(1)], true));
    assert.throws(() => mixed.addText(spoolText([diag(2)])), /not both/);
    assert.throws(() => mixed.addInOrder(diag(3)), /no other/);
    mixed.discard();
    assert.deepEqual(spoolText([], true), { text: '', count: 0, counts: { error: 0, warning: 0, info: 0 }, json: true });
  });
});
