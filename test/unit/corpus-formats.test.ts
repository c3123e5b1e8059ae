// Every file of ../shared/corpus/, read by the adapter of its format: which adapter, how many calls and results,
// how they pair, the transport signals the results carry, and every finding (without workspace contracts), each
// expectation written from reading the file, with its reason. Detection is unambiguous: each corpus file is
// claimed by exactly one adapter, and JSON that is no trace is claimed by none. Skips when the corpus is absent.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ADAPTERS, checkBytes, checkText, claims as adapterClaims, type Session } from '../../src/core';
import { containerText } from '../../src/core/parse/container';
import { LineIndex } from '../../src/core/parse/reader';
import { spanOf } from '../../src/core/parse/doc';

function repoRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'src', 'core'))) return dir;
    if (path.dirname(dir) === dir) throw new Error('no repository root above ' + __dirname);
  }
}

const ROOT = repoRoot();
const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus');
const SKIP = !existsSync(CORPUS) && 'corpus absent (../shared/corpus)';

import { callOf, EXPECT } from './corpus';


function corpusFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  return walk(CORPUS).filter((f) => !f.endsWith('.md')).map((f) => path.relative(CORPUS, f).split(path.sep).join('/')).sort();
}

function transportOf(sessions: Session[]): string[] {
  const out: string[] = [];
  for (const s of sessions) {
    for (const r of s.results) {
      const t = Object.entries(r.transport).map(([k, v]) => `${k}=${String(v)}`).join(' ');
      if (t) out.push(`${callOf(s, r)?.name ?? '?'} ${t}`);
    }
  }
  return out;
}

describe('corpus formats: each file read by its adapter', { skip: SKIP }, () => {
  it('every corpus file has an expectation, and every expectation a file', () => {
    assert.deepEqual(corpusFiles(), Object.keys(EXPECT).sort());
  });

  for (const [rel, e] of Object.entries(EXPECT)) {
    it(`${rel}: ${e.format ?? 'no format'}, ${e.calls} calls, ${e.results} results`, () => {
      const file = path.join(CORPUS, rel);
      // The adapters are under test here (no built-in packs); packs.test.ts checks the corpus with them.
      const r = checkBytes(readFileSync(file), { fileName: file, keepModel: true, packs: false });
      const sessions = (r.model ?? []).map((m) => m.session);
      const index = LineIndex.of(r.text);
      const pos = (offset: number) => {
        const p = index.position(offset);
        return `${p.line}:${p.column}`;
      };
      assert.equal(r.format, e.format, e.why);
      assert.equal(sessions.length, e.sessions, 'sessions');
      assert.equal(r.calls, e.calls, 'calls');
      assert.equal(sessions.reduce((n, s) => n + s.results.length, 0), e.results, 'results');
      const unanswered: string[] = [];
      let stray = 0;
      for (const s of sessions) {
        const answered = new Set<number>();
        for (const x of s.results) {
          const c = callOf(s, x);
          if (c) answered.add(c.index);
          else stray += 1;
        }
        for (const c of s.calls) if (!answered.has(c.index)) unanswered.push(c.name);
      }
      assert.deepEqual(unanswered, e.unanswered, 'calls no result answers');
      assert.equal(stray, e.stray ?? 0, 'results that answer no call');
      assert.equal(new Set(sessions.flatMap((s) => s.tools.map((t) => t.name))).size, e.tools ?? 0, 'embedded tool definitions');
      if (e.transport) assert.deepEqual(transportOf(sessions), e.transport, 'transport signals');
      // Every call and result keeps its source anchors: they resolve to a place in the file.
      for (const s of sessions) {
        for (const c of s.calls) {
          for (const a of [c.at, c.nameAt, c.argsAt]) assert.ok(spanOf(a).end > 0 && spanOf(a).end <= r.text.length, `${c.name} anchor inside the file`);
        }
        for (const x of s.results) assert.ok(spanOf(x.at).end > 0 && spanOf(x.at).end <= r.text.length, 'result anchor inside the file');
      }
      const got = r.findings.map((f) => `${f.code} ${pos(f.span.start)}${f.tool ? ' ' + f.tool : ''}`);
      assert.deepEqual(got, e.findings.map(([f]) => f), 'findings');
      e.extra?.(r, sessions, pos);
    });
  }
});

describe('corpus formats: detection is unambiguous', { skip: SKIP }, () => {
  it('each corpus file is claimed by exactly one adapter (every adapter\'s claim functions asked of every unit)', () => {
    const claims: Record<string, string[]> = {};
    for (const rel of corpusFiles()) {
      const bytes = readFileSync(path.join(CORPUS, rel));
      const text = containerText(bytes) ?? bytes.toString('utf8');
      let units: unknown[];
      try {
        units = [JSON.parse(text)];
      } catch {
        units = text.split('\n').filter((l) => l.trim()).flatMap((l) => {
          try {
            return [JSON.parse(l.replace(/^data: ?/, ''))]; // a recorded SSE stream: each data line's JSON
          } catch {
            return [];
          }
        });
      }
      const ids = new Set<string>();
      for (const u of units) for (const a of ADAPTERS) if (adapterClaims(a, u)) ids.add(a.id);
      claims[rel] = [...ids];
    }
    const expected = Object.fromEntries(Object.entries(EXPECT).map(([rel, e]) => [rel, e.format ? [e.format] : []]));
    assert.deepEqual(claims, expected);
  });
});

describe('JSON that is no trace', () => {
  for (const name of ['package.json', 'tsconfig.json', 'package-lock.json']) {
    it(`${name} gets no format and no findings`, () => {
      const r = checkText(readFileSync(path.join(ROOT, name), 'utf8'), { fileName: name });
      assert.equal(r.format, undefined);
      assert.equal(r.calls, 0);
      assert.deepEqual(r.findings, []);
      for (const a of ADAPTERS) assert.equal(a.document?.claims(JSON.parse(readFileSync(path.join(ROOT, name), 'utf8'))) ?? false, false, `${a.id} leaves ${name} alone`);
    });
  }
});
