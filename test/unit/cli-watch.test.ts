// `contract-guard watch`: the built CLI follows a temp folder while lines are appended, files created and
// truncated, and prints each new finding once, in check's text line format.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ROOT } from './helpers';

const CLI = path.join(ROOT, 'dist', 'cli.js');
const CONTRACTS = path.join(ROOT, 'fixtures', 'contracts');
const hours = readFileSync(path.join(ROOT, 'fixtures', 'traces', 'hours.calls.jsonl'), 'utf8').split('\n');
const weather = readFileSync(path.join(ROOT, 'fixtures', 'traces', 'weather.openai-chat.jsonl'), 'utf8').split('\n');
const INTERVAL = 40;

/** A running `watch` with what it printed so far. */
class Watch {
  readonly child: ChildProcess;
  out = '';
  err = '';
  readonly exited: Promise<number | null>;

  constructor(cwd: string, args: string[]) {
    this.child = spawn(process.execPath, [CLI, 'watch', ...args, '--contracts', CONTRACTS, '--interval', String(INTERVAL)], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout!.setEncoding('utf8').on('data', (d: string) => (this.out += d));
    this.child.stderr!.setEncoding('utf8').on('data', (d: string) => (this.err += d));
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  get lines(): string[] {
    return this.out.split('\n').filter((l) => l !== '');
  }

  /** Wait (at most a few seconds) until `ok` holds for what was printed. */
  async until(what: string, ok: () => boolean, ms = 8000): Promise<void> {
    const end = Date.now() + ms;
    while (!ok()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; stdout:\n${this.out}\nstderr:\n${this.err}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Several polls with nothing new happening. */
  settle(): Promise<void> {
    return new Promise((r) => setTimeout(r, INTERVAL * 6));
  }

  async stop(): Promise<number | null> {
    this.child.kill('SIGTERM');
    return this.exited;
  }
}

const count = (lines: string[], part: string) => lines.filter((l) => l.includes(part)).length;

describe('contract-guard watch', () => {
  let dir: string;
  const running: Watch[] = [];
  const start = async (args: string[] = ['.']) => {
    const w = new Watch(dir, args);
    running.push(w);
    await w.until('the start line', () => w.err.includes('following'));
    return w;
  };
  before(() => {
    assert.ok(existsSync(CLI), 'dist/cli.js is built by `npm run build`');
  });
  after(() => {
    for (const w of running) w.child.kill('SIGKILL');
  });
  const dirs: string[] = [];
  const fresh = () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cg-watch-'));
    dirs.push(dir);
  };
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('prints the findings of appended lines of one conversation, each once, from the saved state', async () => {
    fresh();
    writeFileSync(path.join(dir, 'run.jsonl'), `${hours[0]}\n`);
    const w = await start();
    await w.settle();
    assert.deepEqual(w.lines, [], 'a good call: nothing');
    appendFileSync(path.join(dir, 'run.jsonl'), `${hours[1]}\n${hours[2]}\n`);
    await w.until('two type drifts', () => count(w.lines, 'type-drift') === 2);
    assert.match(w.lines[0], /^ {2}run\.jsonl:2:70 {2}error {4}type-drift {13}weekday wanted integer, got string "2"$/, "check's text line");
    assert.match(w.lines[1], /^ {2}run\.jsonl:3:70 /);
    // a repeat of line 1 comes in: the cross-call finding needs the calls before it, which are not read again
    appendFileSync(path.join(dir, 'run.jsonl'), `${hours[3]}\n`);
    await w.until('the duplicate', () => count(w.lines, 'duplicate-fingerprint') === 1);
    await w.settle();
    assert.equal(w.lines.length, 4, w.out);
    assert.equal(count(w.lines, 'run.jsonl:4:10  warning  duplicate-fingerprint'), 1);
    assert.equal(count(w.lines, 'run.jsonl:4:70  error    type-drift'), 1);
    assert.equal(new Set(w.lines).size, w.lines.length, 'no finding printed twice');
    assert.equal(await w.stop(), 0);
    assert.match(w.err, /stopped/);
  });

  it('waits for the newline of a partial last line', async () => {
    fresh();
    writeFileSync(path.join(dir, 'run.jsonl'), `${hours[0]}\n`);
    const w = await start();
    const bad = hours[4];
    const cut = bad.indexOf('"open"');
    appendFileSync(path.join(dir, 'run.jsonl'), bad.slice(0, cut));
    await w.settle();
    assert.deepEqual(w.lines, [], 'half a line is not a parse error yet');
    appendFileSync(path.join(dir, 'run.jsonl'), `${bad.slice(cut)}\n`);
    await w.until('the extra key', () => count(w.lines, 'extra-key') === 1);
    await w.settle();
    assert.deepEqual(w.lines, ['  run.jsonl:2:73  error    extra-key              open is not declared by get_hours']);
    await w.stop();
  });

  it('picks up a file created later in the folder, and prints what files held at the start', async () => {
    fresh();
    writeFileSync(path.join(dir, 'chat.jsonl'), `${weather[0]}\n${weather[1]}\n`);
    const w = await start();
    await w.until('the finding already there', () => count(w.lines, 'chat.jsonl:2:227  error    extra-key') === 1);
    writeFileSync(path.join(dir, 'later.jsonl'), `${hours[0]}\n${hours[2]}\n`);
    await w.until('the new file', () => count(w.lines, 'later.jsonl:2:70  error    type-drift') === 1);
    await w.settle();
    assert.equal(w.lines.length, 2, w.out);
    await w.stop();
  });

  it('reads a truncated file again', async () => {
    fresh();
    const file = path.join(dir, 'run.jsonl');
    writeFileSync(file, `${hours[0]}\n${hours[1]}\n`);
    const w = await start();
    await w.until('the first drift', () => count(w.lines, 'run.jsonl:2:70') === 1);
    truncateSync(file, 0);
    await w.settle();
    writeFileSync(file, `${hours[5]}\n`);
    await w.until('the new content', () => count(w.lines, 'unknown-tool') === 1);
    assert.match(w.err, /run\.jsonl was (truncated|replaced); reading it again/);
    assert.equal(count(w.lines, 'run.jsonl:1:10  error    unknown-tool'), 1);
    await w.settle();
    assert.equal(w.lines.length, 2, w.out);
    await w.stop();
  });

  it('reads a replaced file (a new file renamed over it) again', async () => {
    fresh();
    const file = path.join(dir, 'run.jsonl');
    writeFileSync(file, `${hours[0]}\n${hours[1]}\n`);
    const w = await start();
    await w.until('the first drift', () => count(w.lines, 'run.jsonl:2:70') === 1);
    const next = path.join(dir, 'run.jsonl.tmp');
    writeFileSync(next, `${hours[0]}\n${hours[4]}\n`);
    renameSync(next, file);
    await w.until('the new content', () => count(w.lines, 'extra-key') === 1);
    assert.match(w.err, /run\.jsonl was replaced; reading it again/);
    await w.settle();
    assert.deepEqual(w.lines.slice(1), ['  run.jsonl:2:73  error    extra-key              open is not declared by get_hours']);
    await w.stop();
  });

  it('--tail prints only what is appended after the start', async () => {
    fresh();
    writeFileSync(path.join(dir, 'run.jsonl'), `${hours[0]}\n${hours[1]}\n`);
    const w = await start(['.', '--tail']);
    await w.settle();
    assert.deepEqual(w.lines, [], 'the history is not printed');
    appendFileSync(path.join(dir, 'run.jsonl'), `${hours[4]}\n`);
    await w.until('the appended finding', () => w.lines.length === 1);
    await w.settle();
    assert.deepEqual(w.lines, ['  run.jsonl:3:73  error    extra-key              open is not declared by get_hours']);
    await w.stop();
  });

  it('checks a document again when it is rewritten, printing only findings it did not have', async () => {
    fresh();
    const turn = (id: string, units: string) => [
      { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'get_weather', arguments: JSON.stringify({ city: 'Oslo', units }) } }] },
      { role: 'tool', tool_call_id: id, content: 'ok' },
    ];
    const file = path.join(dir, 'chat.json');
    writeFileSync(file, JSON.stringify({ messages: turn('c1', 'kelvin') }, null, 2));
    const w = await start();
    await w.until('the first finding', () => count(w.lines, 'constraint') === 1);
    // rewritten whole, one turn longer: the first finding moved down, and is not printed again
    writeFileSync(file, JSON.stringify({ messages: [{ role: 'user', content: 'Weather?' }, ...turn('c1', 'kelvin'), ...turn('c2', 'rankine')] }, null, 2));
    await w.until('the new turn', () => w.out.includes('rankine'));
    await w.settle();
    assert.equal(count(w.lines, 'constraint'), 2, w.out);
    assert.equal(count(w.lines, 'kelvin'), 1);
    await w.stop();
  });

  it('a path that does not exist is one line and exit 2', () => {
    fresh();
    const r = spawnSync(process.execPath, [CLI, 'watch', path.join(dir, 'nope')], { encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^contract-guard: .*nope: no such file or folder\n$/);
  });
});
