// The shape reader against the real corpus: every file of ../shared/corpus/ checked once by its own adapter and
// once forced through `generic`. The shape reader must find the same calls on most files without knowing their
// formats, and must not add pairing or repeat findings the format's own adapter does not report. Skips when the
// corpus is absent.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkBytes, type BytesResult } from '../../src/core';
import { CORPUS } from './helpers';

const SKIP = !existsSync(CORPUS) && 'corpus absent (../shared/corpus)';
/** Findings a reader causes by how it pairs and dedupes, not by what the calls say. */
const NOISE = ['orphan-call', 'orphan-result', 'duplicate-call-id', 'duplicate-fingerprint'];

function files(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  return walk(CORPUS).filter((f) => !f.endsWith('.md')).sort();
}

function noise(r: BytesResult): Map<string, number> {
  const m = new Map<string, number>();
  for (const f of r.findings) if (NOISE.includes(f.code)) m.set(f.code, (m.get(f.code) ?? 0) + 1);
  return m;
}

interface Row {
  file: string;
  format: string;
  calls: number;
  generic: number;
  /** `code+n` for each noise code the shape reader reports more often than the file's adapter. */
  extra: string[];
}

describe('generic: the shape reader on the corpus', { skip: SKIP }, () => {
  it('finds the same calls on most files and adds no pairing or repeat noise', () => {
    const rows: Row[] = files().map((file) => {
      const bytes = readFileSync(file);
      const own = checkBytes(bytes, { fileName: file, packs: false });
      const shape = checkBytes(bytes, { fileName: file, packs: false, readAs: 'generic' });
      const a = noise(own);
      const g = noise(shape);
      const extra = NOISE.filter((c) => (g.get(c) ?? 0) > (a.get(c) ?? 0)).map((c) => `${c}+${(g.get(c) ?? 0) - (a.get(c) ?? 0)}`);
      return { file: path.relative(CORPUS, file).split(path.sep).join('/'), format: own.format ?? '-', calls: own.calls, generic: shape.calls, extra };
    });
    const table = [
      '| file | specific adapter | calls | generic calls | extra orphan/duplicate-id/duplicate-fingerprint findings |',
      '|---|---|---|---|---|',
      ...rows.map((r) => `| ${r.file} | ${r.format} | ${r.calls} | ${r.generic} | ${r.extra.join(' ') || '-'} |`),
    ].join('\n');
    console.log(table);

    const same = rows.filter((r) => r.calls === r.generic).length;
    const noisy = rows.filter((r) => r.extra.length > 0);
    console.log(`same call count on ${same} of ${rows.length} files; extra noise on ${noisy.length}: ${noisy.map((r) => r.file).join(', ') || 'none'}`);
    assert.ok(rows.length > 0, 'the corpus has files');
    assert.ok(same >= 0.75 * rows.length, `same call count on ${same} of ${rows.length} files (75% wanted)`);
    assert.ok(noisy.length <= 2, `extra noise on ${noisy.length} files: ${noisy.map((r) => `${r.file} (${r.extra.join(' ')})`).join('; ')}`);
  });
});
