// Call marks (src/core/marks.ts): where each call of a checked trace is, its tool and a
// short summary of its arguments, as the outline, the traces view and links to a call read them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { argSummary, callMarks, checkText, markAt, MAX_MARKS } from '../../src/core';

const TRACE = [
  '{"name": "get_hours", "id": "a", "arguments": {"building": "Killam", "weekday": 2}}',
  '{"name": "write_note", "id": "b", "arguments": {"path": "notes/a.md", "text": "' + 'x'.repeat(500) + '"}}',
  '{"name": "list_rooms", "id": "c", "arguments": {}}',
].join('\n') + '\n';

describe('call marks', () => {
  const result = checkText(TRACE, { fileName: 'marks.calls.jsonl', keepModel: true });
  const marks = callMarks(result.model!);

  it('mark every call: session, index, tool, and the span of the call in the text', () => {
    assert.equal(marks.length, 3);
    assert.deepEqual(marks.map((m) => [m.session, m.index, m.tool]), [[0, 0, 'get_hours'], [0, 1, 'write_note'], [0, 2, 'list_rooms']]);
    const lines = TRACE.split('\n');
    assert.equal(TRACE.slice(marks[0].offset, marks[0].end), lines[0]);
    assert.equal(TRACE.slice(marks[2].offset, marks[2].end), lines[2]);
  });

  it('summarize the arguments on one short line, without rendering a long value whole', () => {
    assert.equal(marks[0].summary, 'building: "Killam", weekday: 2');
    assert.ok(marks[1].summary.startsWith('path: "notes/a.md", text: "xxx'));
    assert.ok(marks[1].summary.length <= 60 && marks[1].summary.endsWith('…'), marks[1].summary);
    assert.equal(marks[2].summary, '');
    assert.equal(argSummary({ a: [1, 2], b: { c: 1 }, d: null, e: [] }), 'a: […], b: {…}, d: null, e: []');
    assert.equal(argSummary('ls -la\n/tmp'), '"ls -la\\n/tmp"');
    assert.equal(argSummary(undefined), '');
  });

  it('find the call that holds an offset (a cursor right after a call is on it), and none past the calls', () => {
    assert.equal(markAt(marks, marks[1].offset + 5)?.index, 1);
    assert.equal(markAt(marks, marks[2].end)?.index, 2);
    assert.equal(markAt(marks, marks[0].end + 1)?.index, 1, 'the next line starts the next call');
    assert.equal(markAt(marks, marks[2].end + 2), undefined, 'past the last call');
    assert.equal(markAt([], 3), undefined);
  });

  it('stop at the limit', () => {
    const many = Array.from({ length: 30 }, (_, i) => `{"name": "t", "arguments": {"i": ${i}}}`).join('\n');
    const model = checkText(many, { fileName: 'many.calls.jsonl', keepModel: true }).model!;
    assert.equal(callMarks(model, 7).length, 7);
    assert.ok(MAX_MARKS >= 10000);
  });
});
