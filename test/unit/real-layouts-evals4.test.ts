// Layouts of eval-harness output met in the fourth round: Inspect AI `.eval` zips with chunked samples (log version
// 3: a shell `sample.json` beside numbered chunks of messages, events and attachments) and zips whose members are
// zstd-compressed (zip method 93, what Inspect's recorder writes). Every trace here is small and written for the
// test from the format's documented layout; none is a copy of a sample.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { zipSync, strToU8 } from 'fflate';
import { checkBytes, checkText, containerText, useZstd, type Session } from '../../src/core';

const calls = (s: Session) => s.calls.map((c) => `${c.name}${JSON.stringify(c.args)}`);
const member = (v: unknown) => strToU8(JSON.stringify(v));
const check = (zip: Uint8Array) => checkBytes(zip, { fileName: 'run.eval', keepModel: true, packs: false });
const header = { version: 3, status: 'success', eval: { task: 't', model: 'm' } };

/** A stored zip whose members are marked zstd (method 93): their bytes are the plain text, so a test decoder that
 *  hands them back unchanged reads them. */
function markedZstd(files: Record<string, Uint8Array>, only?: (name: string) => boolean): Uint8Array {
  const zip = zipSync(files, { level: 0 });
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const names = new TextDecoder();
  for (let i = 0; i + 46 <= zip.length; i++) {
    const sig = view.getUint32(i, true);
    if (sig === 0x04034b50) {
      const name = names.decode(zip.subarray(i + 30, i + 30 + view.getUint16(i + 26, true)));
      if (!only || only(name)) view.setUint16(i + 8, 93, true);
    } else if (sig === 0x02014b50) {
      const name = names.decode(zip.subarray(i + 46, i + 46 + view.getUint16(i + 28, true)));
      if (!only || only(name)) view.setUint16(i + 10, 93, true);
    }
  }
  return zip;
}

describe('Inspect AI .eval with chunked samples', () => {
  const long = 'x'.repeat(150);
  // the messages sequence is the pool: the final conversation is message_refs ranges into it, across chunks
  const pool = [
    { role: 'user', content: 'go' },
    { role: 'assistant', content: '', tool_calls: [{ id: 'a1', function: 'bash', arguments: { cmd: 'ls' } }] },
    { role: 'tool', tool_call_id: 'a1', function: 'bash', content: 'attachment://0' },
    { role: 'assistant', content: 'unused draft' },
    { role: 'assistant', content: '', tool_calls: [{ id: 'a2', function: 'read', arguments: { path: 'attachment://1' } }] },
    { role: 'tool', tool_call_id: 'a2', function: 'read', content: '', error: { type: 'file_not_found', message: 'no' } },
  ];
  const shell = { id: 'task-7', epoch: 2, input: 'go', target: '', message_refs: [[0, 3], [4, 6]], sequences: { messages: [3, 6], events: [3] } };
  const events = [
    { event: 'model', input: [], input_refs: [[0, 1]], tools: [{ name: 'bash', parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] } }],
      output: { choices: [{ message: pool[1] }] } },
    { event: 'tool', id: 'a1', function: 'bash', arguments: { cmd: 'ls' }, result: 'attachment://0' },
    // a sub-agent's call the final messages do not hold
    { event: 'tool', id: 'sub1', function: 'grep', arguments: { pattern: 'attachment://0' }, result: 'hit' },
  ];
  const files = {
    'header.json': member(header),
    'samples/1_epoch_1.json': member({ id: 1, epoch: 1, events: [], messages: [
      { role: 'assistant', content: '', tool_calls: [{ id: 'm1', function: 'bash', arguments: { cmd: 'pwd' } }] },
      { role: 'tool', tool_call_id: 'm1', function: 'bash', content: '/' }] }),
    'samples/task-7_epoch_2/sample.json': member(shell),
    'samples/task-7_epoch_2/skeleton.json': member({ spans: [] }),
    'samples/task-7_epoch_2/messages/0.json': member(pool.slice(0, 3)),
    'samples/task-7_epoch_2/messages/3.json': member(pool.slice(3)),
    'samples/task-7_epoch_2/events/0.json': member(events),
    'samples/task-7_epoch_2/events/stats.json': member({ chunks: [] }),
    'samples/task-7_epoch_2/calls/0.json': member([]),
    'samples/task-7_epoch_2/attachments/0.json': member([long, '/etc/' + long]),
  };

  it('a chunked sample is one session: its final conversation from message_refs, its events, attachments by index', () => {
    const r = check(zipSync(files));
    assert.equal(r.format, 'inspect');
    const byId = new Map(r.model!.map((m) => [m.session.id, m.session]));
    const s = [...byId.values()].find((x) => x.calls.some((c) => c.name === 'read'));
    assert.ok(s, [...byId.keys()].join());
    assert.deepEqual(calls(s), [`bash{"cmd":"ls"}`, `read{"path":"/etc/${long}"}`, `grep{"pattern":"${long}"}`], 'the draft outside message_refs is not a call; references resolved');
    assert.deepEqual(s.results.map((x) => [x.callId, x.transport.isError]), [['a1', false], ['a2', true], ['sub1', false]]);
    assert.equal(s.results[0].payload, long);
    assert.deepEqual(s.tools.map((t) => t.name), ['bash']);
    const mono = [...byId.values()].find((x) => x !== s);
    assert.deepEqual(mono && calls(mono), ['bash{"cmd":"pwd"}'], 'a monolith sample in the same zip is read as before');
  });

  it('positions point into the chunk a call came from', () => {
    const r = check(zipSync(files));
    const s = r.model!.map((m) => m.session).find((x) => x.calls.some((c) => c.name === 'read'))!;
    const read = s.calls.find((c) => c.name === 'read')!;
    assert.deepEqual(read.at.path.slice(-5), ['message_chunks', 1, 1, 'tool_calls', 0]);
    assert.ok(r.text.includes('"chunked_sample"'));
  });

  it('message_refs that repeat the whole pool take each message once (a small file is no memory bomb)', () => {
    const many = { ...shell, message_refs: Array.from({ length: 5000 }, () => [0, 1e9]) };
    const r = check(zipSync({ ...files, 'samples/task-7_epoch_2/sample.json': member(many) }));
    const s = r.model!.map((m) => m.session).find((x) => x.calls.some((c) => c.name === 'read'))!;
    assert.deepEqual(s.calls.map((c) => c.name), ['bash', 'read', 'grep']);
    assert.deepEqual(s.results.map((x) => x.callId), ['a1', 'a2', 'sub1']);
  });

  it('chunks without their shell are no sample; the zip still reads', () => {
    const { 'samples/task-7_epoch_2/sample.json': _shell, ...rest } = files;
    void _shell;
    const r = check(zipSync(rest));
    assert.equal(r.format, 'inspect');
    assert.deepEqual(r.model!.map((m) => calls(m.session)), [['bash{"cmd":"pwd"}']]);
    assert.ok(!r.findings.some((f) => f.code === 'parse-error'));
  });
});

describe('Inspect AI .eval members compressed with zstd', () => {
  const sample = { id: 1, epoch: 1, events: [], messages: [
    { role: 'assistant', content: '', tool_calls: [{ id: 'z1', function: 'bash', arguments: { cmd: 'ls' } }] },
    { role: 'tool', tool_call_id: 'z1', function: 'bash', content: 'a' }] };
  const files = { 'header.json': member(header), 'samples/1_epoch_1.json': member(sample), 'summaries.json': member([]) };

  it('without a zstd decoder: one parse-error line that says why, no crash, nothing invented', () => {
    useZstd(null);
    const r = check(markedZstd(files));
    const errors = r.findings.filter((f) => f.code === 'parse-error');
    assert.equal(errors.length, 1);
    assert.match(errors[0].message, /^2 members of this zip \(header\.json, \.\.\.\) are zstd-compressed .*cannot inflate zstd/);
    assert.ok(!errors[0].message.includes('\n'));
    assert.equal(r.model!.length, 0);
    assert.equal(r.container, true);
  });

  it('a zip with only some members in zstd: the others are read, the rest named', () => {
    useZstd(null);
    const r = check(markedZstd(files, (n) => n.startsWith('samples/')));
    assert.match(r.findings.find((f) => f.code === 'parse-error')!.message, /^1 member of this zip \(samples\/1_epoch_1\.json\) is zstd-compressed/);
    assert.ok(containerText(markedZstd(files, (n) => n.startsWith('samples/')))!.startsWith('{"header": {"version":3'));
  });

  it('with a decoder handed to useZstd, those members are read like any other', () => {
    let used = 0;
    useZstd((raw) => (used++, raw));
    try {
      const r = check(markedZstd(files));
      assert.equal(r.format, 'inspect');
      assert.equal(used, 2, 'summaries.json is not inflated: it holds no calls');
      assert.deepEqual(r.model!.map((m) => calls(m.session)), [['bash{"cmd":"ls"}']]);
      assert.deepEqual(r.model![0].session.results.map((x) => x.callId), ['z1']);
      assert.ok(!r.findings.some((f) => f.code === 'parse-error'));
    } finally {
      useZstd(undefined);
    }
  });

  it('the built-in decoder (fzstd) inflates a real zstd frame; a member that is no zstd frame is named', () => {
    // a zstd frame holding one raw block: magic, a single-segment header with a 2-byte content size, the block
    const frame = (data: Uint8Array) => {
      const out = new Uint8Array(4 + 1 + 2 + 3 + data.length);
      out.set([0x28, 0xb5, 0x2f, 0xfd, 0x60, (data.length - 256) & 0xff, (data.length - 256) >> 8]);
      const block = 1 | (data.length << 3); // last block, raw, its size
      out.set([block & 0xff, (block >> 8) & 0xff, (block >> 16) & 0xff], 7);
      out.set(data, 10);
      return out;
    };
    useZstd(undefined);
    const text = new TextDecoder().decode(member(sample)).padEnd(300, ' ');
    const zipped = markedZstd({ ...files, 'samples/1_epoch_1.json': frame(new TextEncoder().encode(text)) }, (n) => n.startsWith('samples/'));
    const r = check(zipped);
    assert.equal(r.format, 'inspect');
    assert.deepEqual(r.model!.map((m) => calls(m.session)), [['bash{"cmd":"ls"}']]);
    assert.ok(!r.findings.some((f) => f.code === 'parse-error'), r.findings.map((f) => f.message).join());
    const junk = check(markedZstd(files, (n) => n.startsWith('samples/')));
    assert.match(junk.findings.find((f) => f.code === 'parse-error')!.message, /^1 member of this zip \(samples\/1_epoch_1\.json\) is zstd-compressed .*could not be inflated/);
  });

  it('a zstd bomb (a few KB of RLE blocks claiming gigabytes) is stopped at the member limit, in one line', () => {
    useZstd(undefined);
    // a frame without a content size (window 128 KB) of 2,100 RLE blocks of 128 KB each: 4 bytes each, 275 MB out
    const blocks = 2100;
    const bomb = new Uint8Array(6 + 4 * blocks);
    bomb.set([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38]);
    for (let k = 0; k < blocks; k++) {
      const header = (k === blocks - 1 ? 1 : 0) | (1 << 1) | ((128 << 10) << 3); // last?, RLE, 128 KB
      bomb.set([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff, 0x20], 6 + 4 * k);
    }
    const r = check(markedZstd({ ...files, 'samples/1_epoch_1.json': bomb }, (n) => n.startsWith('samples/')));
    const errors = r.findings.filter((f) => f.code === 'parse-error');
    assert.equal(errors.length, 1);
    assert.match(errors[0].message, /^1 member of this zip \(samples\/1_epoch_1\.json\) is zstd-compressed .*more than 256 MB\): not read$/);
  });

  it('a member whose zip entry claims more than the member limit is named, not inflated', () => {
    const zip = zipSync(files, { level: 0 });
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    const names = new TextDecoder();
    for (let i = 0; i + 46 <= zip.length; i++) {
      if (view.getUint32(i, true) !== 0x02014b50) continue;
      const name = names.decode(zip.subarray(i + 46, i + 46 + view.getUint16(i + 28, true)));
      if (name.startsWith('samples/')) view.setUint32(i + 24, 0xfff00000, true); // ~4 GB uncompressed
    }
    const r = check(zip);
    const errors = r.findings.filter((f) => f.code === 'parse-error');
    assert.equal(errors.length, 1);
    assert.match(errors[0].message, /^1 member of this zip \(samples\/1_epoch_1\.json\) would inflate to more than 256 MB/);
  });

  it('members each under the member limit but past 480 MB together: the ones past it are named, not inflated', () => {
    // three samples whose entries claim 200 MB each (stored: nothing is allocated for the claim), then a zstd one
    const many = { ...files, 'samples/2_epoch_1.json': member({ ...sample, id: 2 }), 'samples/3_epoch_1.json': member({ ...sample, id: 3 }), 'samples/4_epoch_1.json': member({ ...sample, id: 4 }) };
    const zip = markedZstd(many, (n) => n === 'samples/4_epoch_1.json');
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    const names = new TextDecoder();
    for (let i = 0; i + 46 <= zip.length; i++) {
      if (view.getUint32(i, true) !== 0x02014b50) continue;
      const name = names.decode(zip.subarray(i + 46, i + 46 + view.getUint16(i + 28, true)));
      if (/^samples\/[123]_/.test(name)) view.setUint32(i + 24, 200 << 20, true);
    }
    const maxes: number[] = [];
    useZstd((raw, max) => {
      maxes.push(max);
      if (max < 100 << 20) throw new RangeError('would pass the limit'); // as a real decoder does past `max`
      return raw;
    });
    try {
      const r = check(zip);
      const errors = r.findings.filter((f) => f.code === 'parse-error');
      assert.equal(errors.length, 1);
      assert.equal(errors[0].message, '2 members of this zip (samples/3_epoch_1.json, ...) would inflate the zip past 480 MB (the limit of all members together): not read');
      // what the header and the two 200 MB samples left of 480 MB
      assert.equal(maxes.length, 1);
      assert.ok(maxes[0] <= 80 << 20 && maxes[0] > 79 << 20, `the zstd member may take only what the others left (${maxes[0]})`);
      assert.deepEqual(r.model!.map((m) => m.session.calls.length), [1, 1], 'the two samples within the limit are read');
    } finally {
      useZstd(undefined);
    }
  });

  it('a decoder that fails on a member leaves that member named, not a crash', () => {
    useZstd(() => { throw new Error('bad frame'); });
    try {
      const r = check(markedZstd(files));
      assert.equal(r.findings.filter((f) => f.code === 'parse-error').length, 1);
    } finally {
      useZstd(undefined);
    }
  });
});

describe('BFCL files of other layouts', () => {
  const read = (text: string, fileName: string) => {
    const r = checkText(text, { fileName, keepModel: true, packs: false });
    return { r, sessions: (r.model ?? []).map((m) => m.session), codes: r.findings.map((f) => f.code) };
  };
  const jsonl = (...rows: unknown[]) => rows.map((x) => JSON.stringify(x)).join('\n') + '\n';

  it('a result file of bare answer lines (no id): each text a call list, `[]` and refusals no call', () => {
    const text = jsonl([], ['[area(width=2.5, height=4)]'], ['No relevant function available.'], ['[to_c(f=98.6), log(msg=\'it\\\'s hot\')]'], ['[No relevant function available.]']);
    const { r, sessions } = read(text, 'pipeline_result_simple.jsonl');
    assert.equal(r.format, 'bfcl');
    assert.deepEqual(sessions.map(calls), [['area{"width":2.5,"height":4}'], ['to_c{"f":98.6}', 'log{"msg":"it\'s hot"}']]);
  });

  it('a lone list of plain strings is not taken for an answer', () => {
    const { r } = read(JSON.stringify(['hello', 'no calls here']), 'notes.json');
    assert.notEqual(r.format, 'bfcl');
  });

  it('multi-turn and memory questions (involved_classes, no definitions) are BFCL questions, not chat', () => {
    const text = jsonl(
      { id: 'multi_turn_base_3', question: [[{ role: 'user', content: 'copy a to b' }], [{ role: 'user', content: 'now list' }]], initial_config: {}, path: ['Fs.cp'], involved_classes: ['Fs'] },
      { id: 'memory_2-student-2', question: [[{ role: 'user', content: 'what is my major?' }]], involved_classes: ['MemoryAPI'], scenario: 'student' },
    );
    const { r, sessions, codes } = read(text, 'BFCL_v4_multi_turn_base.json');
    assert.equal(r.format, 'bfcl');
    assert.equal(sessions.reduce((n, s) => n + s.calls.length, 0), 0);
    assert.ok(!codes.includes('unknown-format'), codes.join());
  });

  it('a multi-turn class\'s function docs are read as definitions in BFCL\'s types', () => {
    const text = jsonl(
      { name: 'mkdir', description: 'Make a folder.', parameters: { type: 'dict', properties: { dir_name: { type: 'string' } }, required: ['dir_name'] }, response: { type: 'dict', properties: {} } },
      { name: 'wc', description: 'Count.', parameters: { type: 'dict', properties: { n: { type: 'float' } }, required: [] } },
    );
    const { r, sessions } = read(text, 'gorilla_file_system.json');
    assert.equal(r.format, 'bfcl');
    const tools = sessions.flatMap((s) => s.tools);
    assert.deepEqual(tools.map((t) => t.name), ['mkdir', 'wc']);
    assert.deepEqual(tools[1].inputSchema, { type: 'object', properties: { n: { type: 'number' } }, required: [] });
  });

  it('a web-search or memory answer key (answer strings, not calls) holds no call', () => {
    const text = jsonl({ id: 'web_search_3', ground_truth: ['1871'], source: [{ subquestion: 'q', answer: 'a', source: 'u' }], num_hops: 2 });
    const { r, sessions } = read(text, 'BFCL_v4_web_search.json');
    assert.equal(r.format, 'bfcl');
    assert.equal(sessions.reduce((n, s) => n + s.calls.length, 0), 0);
  });
});

describe('mini-swe-agent, earliest layout', () => {
  it('```bash actions answered by `Observation: {...}` (the repr of the subprocess result): calls, results, exit codes', () => {
    const msgs = [
      { role: 'system', content: 'You can run shell commands.' },
      { role: 'user', content: 'Fix it. Reply with one command in triple backticks.' },
      { role: 'assistant', content: 'First look:\n\n```bash\nls -la\n```' },
      { role: 'user', content: "Observation: {'args': ['bash', '-c', 'ls -la'], 'returncode': 0, 'stdout': 'a\\n', 'stderr': ''}" },
      { role: 'assistant', content: 'Now test:\n\n```bash\npytest -x\n```' },
      { role: 'user', content: "Observation: {'args': ['bash', '-c', 'pytest -x'], 'returncode': 2, 'stdout': '', 'stderr': 'no tests'}" },
    ];
    const r = checkText(JSON.stringify(msgs), { fileName: 'run.traj.json', keepModel: true, packs: false });
    assert.equal(r.format, 'mini-swe-agent');
    const s = r.model![0].session;
    assert.deepEqual(s.calls.map((c) => c.args), ['ls -la', 'pytest -x']);
    assert.deepEqual(s.results.map((x) => [x.callIndex, x.transport.exitCode]), [[0, 0], [1, 2]]);
  });

  it("the exit code is the result's own `'returncode'`, not one its output quotes", () => {
    const msgs = [
      { role: 'assistant', content: '```bash\ncat status.txt\n```' },
      { role: 'user', content: "Observation: {'args': ['bash', '-c', 'cat status.txt'], 'returncode': 0, 'stdout': \"{'returncode': 3}\", 'stderr': ''}" },
    ];
    const r = checkText(JSON.stringify(msgs), { fileName: 'run.traj.json', keepModel: true, packs: false });
    assert.equal(r.format, 'mini-swe-agent');
    assert.deepEqual(r.model![0].session.results.map((x) => x.transport.exitCode), [0]);
  });

  it('a chat that merely shows a ```bash block is not taken for one', () => {
    const msgs = [{ role: 'user', content: 'how do I list files?' }, { role: 'assistant', content: 'Use:\n```bash\nls\n```' }];
    const r = checkText(JSON.stringify(msgs), { fileName: 'chat.json', keepModel: true, packs: false });
    assert.notEqual(r.format, 'mini-swe-agent');
  });
});
