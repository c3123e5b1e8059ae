// A JSON document cut short (parse/truncated.ts): the whole records before the break are read and checked, at
// their own offsets; the break is a parse error; the record the break is in is not read half.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LineIndex } from '../../src/core';
import { readModel } from './helpers';
import { keptPrefix } from '../../src/core/parse/truncated';

const call = (id: string, city: string) => ({ role: 'assistant', tool_calls: [{ id, type: 'function', function: { name: 'get_weather', arguments: JSON.stringify({ city }) } }] });
const answer = (id: string) => ({ role: 'tool', tool_call_id: id, content: 'sunny' });

/** A chat document pretty-printed one message per line, cut `drop` characters before its end. */
function cutChat(drop: number): { text: string; whole: string } {
  const messages = [{ role: 'user', content: 'weather?' }, call('c1', 'Oslo'), answer('c1'), call('c2', 'Bergen'), answer('c2')];
  const whole = '{"messages": [\n' + messages.map((m) => ' ' + JSON.stringify(m)).join(',\n') + '\n]}\n';
  return { text: whole.slice(0, whole.length - drop), whole };
}

function read(text: string, fileName = 'chat.json') {
  const m = readModel(text, { fileName });
  return { ...m, calls: m.sessions.flatMap((s) => s.calls) };
}

describe('a JSON document cut short', () => {
  it('reads the whole messages before the break, and says where it broke', () => {
    const { text } = cutChat(40); // inside the last tool message
    const { r, calls, codes } = read(text);
    assert.equal(r.format, 'openai-chat');
    assert.deepEqual(calls.map((c) => c.id), ['c1', 'c2']);
    assert.deepEqual(calls.map((c) => c.args), [{ city: 'Oslo' }, { city: 'Bergen' }]);
    const breaks = r.findings.filter((f) => f.code === 'parse-error');
    assert.equal(breaks.length, 1);
    // the break is reported at the end of the text, where it stopped
    assert.ok(breaks[0].span.start >= text.lastIndexOf('{"role": "tool"') || breaks[0].span.start >= text.length - 30, JSON.stringify(breaks[0].span));
    // c2's answer was cut: c2 waits for it (an orphan at the end of a trace), c1 was answered
    assert.ok(codes.includes('orphan-call'), codes.join());
    assert.equal(r.findings.filter((f) => f.code === 'orphan-call').length, 1);
  });

  it('does not read the call the break is in (its arguments would be half)', () => {
    const { text, whole } = cutChat(0);
    const inArgs = whole.indexOf('Bergen') + 3;
    const { calls, codes } = read(text.slice(0, inArgs));
    assert.deepEqual(calls.map((c) => c.id), ['c1']);
    assert.ok(codes.includes('parse-error'));
  });

  it('keeps every offset of the part it read: a finding sits where it sits in the whole file', () => {
    const { text, whole } = cutChat(40);
    const cut = read(text).r.findings.filter((f) => f.code !== 'parse-error' && f.code !== 'orphan-call');
    const full = read(whole).r.findings.filter((f) => f.code !== 'orphan-call');
    assert.ok(cut.length > 0);
    const where = (t: string, fs: typeof cut) => fs.map((f) => `${f.code} ${LineIndex.of(t).position(f.span.start).line}:${f.span.start}-${f.span.end}`).sort();
    assert.deepEqual(where(text, cut), where(whole, full.filter((f) => f.span.start < text.length)));
  });

  it('reads nothing of a document whose break is before its first whole record', () => {
    const { whole } = cutChat(0);
    const { calls, codes } = read(whole.slice(0, whole.indexOf('tool_calls') + 5));
    assert.equal(calls.length, 0);
    assert.deepEqual(codes, ['parse-error']);
  });

  it('is undefined for a document that closed before its error, and never throws on odd cuts', () => {
    assert.equal(keptPrefix('{"a": [{"b": 1}]} x', 18), undefined);
    const { whole } = cutChat(0);
    for (let n = 1; n < whole.length; n += 7) {
      const doc = keptPrefix(whole.slice(0, n), n);
      if (doc) assert.ok(typeof doc.value === 'object' && doc.value !== null);
    }
  });
});
