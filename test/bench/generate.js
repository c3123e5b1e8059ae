// Generates a large, deterministic trace for the benchmark: OpenAI fine-tune JSONL (one conversation per line,
// tools embedded), mixed good and bad calls to the seed tools, string-encoded arguments, results after each call.
'use strict';
const fs = require('node:fs');
const crossCall = require('./cross-call');

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ROOMS = ['KILLAM-212', 'CS-130', 'MCD-17'];
const BUILDINGS = ['Killam', 'Dunn', 'Goldberg', 'McCain', 'Rowe'];
const CITIES = ['Oslo', 'Halifax', 'Bergen', 'Lisbon', 'Kyoto', 'Nairobi'];

/** One call's arguments: about one in five is bad in one of the ways the seeds tell. `variant` (a second run, for
 *  the compare case): one get_hours call in a hundred sends `day` for `weekday`, a shape the first run never had. */
function makeCall(r, variant = false) {
  const bad = r() < 0.2;
  const kind = Math.floor(r() * 4);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  if (kind === 0) {
    const args = { building: pick(BUILDINGS), weekday: Math.floor(r() * 7) };
    if (bad) [() => (args.weekday = true), () => (args.weekday = String(args.weekday)), () => (args.open = true), () => (args.weekday = 9)][Math.floor(r() * 4)]();
    if (variant && r() < 0.01) {
      args.day = args.weekday;
      delete args.weekday;
    }
    return { name: 'get_hours', args };
  }
  if (kind === 1) {
    const args = { room_id: pick(ROOMS), minutes: pick([30, 60, 90, 120]), student: pick(['alex', 'sam', 'kim', 'noor']) };
    if (bad) [() => (args.room_id = 'KILLAM-404'), () => delete args.minutes, () => (args.minutes = 180), () => (args.student = '')][Math.floor(r() * 4)]();
    return { name: 'book_room', args };
  }
  if (kind === 2) {
    const args = { city: pick(CITIES), units: pick(['metric', 'imperial']) };
    if (bad) [() => (args.lang = 'no'), () => (args.units = 'kelvin'), () => delete args.units, () => (args.city = 7)][Math.floor(r() * 4)]();
    return { name: 'get_weather', args };
  }
  return { name: 'list_rooms', args: bad ? { quiet_only: 'yes' } : { quiet_only: r() < 0.5 } };
}

const contracts = (dir) => {
  const read = (f) => JSON.parse(fs.readFileSync(`${dir}/${f}`, 'utf8'));
  const hours = read('hours.contract.json').tools;
  const rooms = read('rooms.contract.json').tools;
  const weather = read('weather.tools.json')[0].function;
  return [
    { type: 'function', function: { name: 'get_hours', description: 'Opening hours of a building.', parameters: hours.get_hours.arguments } },
    { type: 'function', function: { name: 'list_rooms', description: 'The bookable rooms.', parameters: rooms.list_rooms.arguments } },
    { type: 'function', function: { name: 'book_room', description: 'Book a study room.', parameters: rooms.book_room.arguments } },
    { type: 'function', function: { name: 'get_weather', description: weather.description, parameters: weather.parameters } },
  ];
};

/** Write about `megabytes` MB; returns the number of calls written. Another seed with `variant` is a second run. */
function generate(file, megabytes, contractsDir, seed = 42, variant = false) {
  const r = rng(seed);
  const tools = contracts(contractsDir);
  const target = megabytes * 1024 * 1024;
  const fd = fs.openSync(file, 'w');
  let bytes = 0;
  let calls = 0;
  let n = 0;
  const chunk = [];
  while (bytes < target) {
    const messages = [
      { role: 'system', content: 'You are a campus assistant. Use the tools; never guess a room, a weekday or a unit.' },
      { role: 'user', content: `Request ${n}: help me plan my day around the library and the weather.` },
    ];
    // Like a real agent, it looks the rooms up first, so book_room's room ids have an earlier source.
    const turns = 1 + Math.floor(r() * 3);
    let listed = false;
    const s = crossCall.session(r);
    for (let t = 0; t < turns; t++) {
      const k = 1 + Math.floor(r() * 3);
      const tcs = [];
      for (let i = 0; i < k; i++) {
        let c = s.repeat() ?? makeCall(r, variant);
        if (c.name === 'book_room' && !listed) c = { name: 'list_rooms', args: { quiet_only: false } };
        if (c.name === 'list_rooms') listed = true;
        s.made(c);
        tcs.push({ id: s.id(`call_${n}_${t}_${i}`), type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } });
      }
      messages.push({ role: 'assistant', content: t === 0 ? 'Let me check.' : null, tool_calls: tcs });
      for (const tc of tcs) {
        const result = tc.function.name === 'list_rooms' ? { rooms: ROOMS } : { note: 'done', n };
        const content = s.result(tc, { ok: true, error: null, result });
        if (content !== undefined) messages.push({ role: 'tool', tool_call_id: tc.id, content });
      }
      calls += k;
    }
    messages.push({ role: 'assistant', content: 'Here is your plan for the day.' });
    const line = JSON.stringify({ messages, tools }) + '\n';
    chunk.push(line);
    bytes += Buffer.byteLength(line);
    n += 1;
    if (chunk.length >= 500) fs.writeSync(fd, chunk.splice(0).join(''));
  }
  fs.writeSync(fd, chunk.join(''));
  fs.closeSync(fd);
  return { calls, lines: n, bytes };
}

module.exports = { generate, makeCall, rng, ROOMS };

if (require.main === module) {
  const [file = '.bench/trace.jsonl', mb = '100'] = process.argv.slice(2);
  console.log(generate(file, Number(mb), 'fixtures/contracts'));
}
