// Runs one fuzz input through the core's entry points (the ones the CLI and the editor use) and judges the
// outcome: findings or a clean result are fine; a throw, a malformed result or a polluted prototype is a failure.
'use strict';
const path = require('node:path');
const fs = require('node:fs');

function loadCore() {
  const root = path.resolve(__dirname, '..', '..');
  const out = path.join(root, 'out', 'src', 'core');
  if (!fs.existsSync(path.join(out, 'index.js'))) throw new Error('build the core first: npm run build (out/src/core is missing)');
  const core = require(out);
  let chunked;
  try {
    chunked = require(path.join(out, 'chunked.js'));
  } catch {
    chunked = undefined;
  }
  return { core, chunked };
}

// ---------------------------------------------------------------- prototype pollution
const WATCHED = [Object.prototype, Array.prototype, Function.prototype, String.prototype, Number.prototype, Boolean.prototype,
  Symbol.prototype, RegExp.prototype, Map.prototype, Set.prototype, WeakMap.prototype, Promise.prototype, Error.prototype,
  Date.prototype, Object, Array, JSON, Math, globalThis];
const names = (o) => Reflect.ownKeys(o).map(String).sort().join('\u0000');
const snapshot = WATCHED.map(names);

/** A description of what got polluted, or undefined. */
function pollution() {
  for (let i = 0; i < WATCHED.length; i++) {
    const now = names(WATCHED[i]);
    if (now !== snapshot[i]) {
      const before = new Set(snapshot[i].split('\u0000'));
      const added = now.split('\u0000').filter((k) => !before.has(k));
      return `${i === WATCHED.length - 1 ? 'globalThis' : (WATCHED[i].constructor?.name ?? '?') + (i < 14 ? '.prototype' : '')} gained ${added.join(', ') || '(changed keys)'}`;
    }
  }
  const probe = {};
  if (probe.polluted !== undefined || [].polluted !== undefined) return 'objects see a polluted property';
  return undefined;
}

// ---------------------------------------------------------------- result shape
const SEVERITIES = new Set(['error', 'warning', 'info', 'hint']);

function checkFindings(findings, length, where) {
  if (!Array.isArray(findings)) return `${where}: findings is not an array`;
  for (const f of findings) {
    if (typeof f.code !== 'string' || !SEVERITIES.has(f.severity) || typeof f.message !== 'string') return `${where}: malformed finding ${JSON.stringify(f).slice(0, 200)}`;
    const s = f.span;
    if (!s || !Number.isInteger(s.start) || !Number.isInteger(s.end) || s.start < 0 || s.end < s.start || s.end > length) {
      return `${where}: ${f.code} span ${JSON.stringify(s)} outside the text (length ${length})`;
    }
  }
  return undefined;
}

/** The CLI's stream path: JSONL fed line by line with the offsets the CLI computes. */
function checkLines(core, text, options) {
  const checker = new core.TraceChecker(options);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    const stop = nl === -1 ? text.length : nl;
    const end = stop > start && text.charCodeAt(stop - 1) === 13 ? stop - 1 : stop;
    if (nl !== -1 || start < text.length) checker.addLine(text.slice(start, end), start);
    if (nl === -1) break;
    start = nl + 1;
  }
  return { result: checker.finish(), length: text.length };
}

let fixtureContracts;
function contractsFor(core) {
  if (!fixtureContracts) {
    const dir = path.resolve(__dirname, '..', '..', 'fixtures', 'contracts');
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => ({ path: `fixtures/contracts/${f}`, text: fs.readFileSync(path.join(dir, f), 'utf8') }));
    fixtureContracts = core.loadContracts(files).contracts;
  }
  return fixtureContracts;
}

/**
 * Run one input. Returns undefined when the outcome is acceptable, else {kind: 'crash'|'invalid'|'pollution', message}.
 * Throws nothing.
 */
function runInput(loaded, input, index) {
  const { core } = loaded;
  let problem;
  try {
    if (input.kind === 'contract') {
      const { contracts, findings } = core.loadContracts([{ path: input.name, text: input.text }]);
      for (const cf of findings) {
        problem ??= checkFindings([cf.finding], input.text.replace(/^\ufeff/, '').length + 1, 'loadContracts');
      }
      if (!problem) {
        const text = input.trace.text;
        const r = core.checkText(text, { fileName: input.trace.name, contracts });
        problem = checkFindings(r.findings, text.length, 'checkText under the mutated contract');
      }
    } else if (input.kind === 'bytes') {
      const r = core.checkBytes(input.bytes, { fileName: input.name, contracts: index % 2 ? contractsFor(core) : undefined });
      problem = checkFindings(r.findings, r.text.replace(/^\ufeff/, '').length, 'checkBytes');
    } else {
      const options = { fileName: input.name, contracts: index % 3 ? contractsFor(core) : undefined, keepModel: index % 5 === 0 };
      if (input.lines) {
        const { result, length } = checkLines(core, input.text, options);
        problem = checkFindings(result.findings, length, 'TraceChecker.addLine');
      } else {
        const r = core.checkText(input.text, options);
        problem = checkFindings(r.findings, input.text.replace(/^\ufeff/, '').length, 'checkText');
      }
    }
    if (problem) problem = { kind: 'invalid', message: problem };
  } catch (e) {
    problem = { kind: 'crash', message: (e && e.stack) ? String(e.stack).split('\n').slice(0, 8).join('\n') : String(e) };
  }
  const polluted = pollution();
  if (polluted) return { kind: 'pollution', message: polluted };
  return problem;
}

module.exports = { loadCore, runInput, pollution, checkFindings };
