// Cross-call traffic for the generated bench traces (issue 3), so the checks between calls do their real work at
// realistic rates: every result is read (status-theater), calls are fingerprinted and paired, book_room results
// carry an etag per room (stale-digest), book_room ids come from list_rooms (assumed-value). Now and then, the
// seed's faults: a verbatim repeat in the next turn (duplicate-fingerprint), a 200 around ok: false
// (status-theater), an honest 503 (no finding), a booking whose etag did not move (stale-digest), a result that
// never came (orphan-call), a call id used twice (duplicate-call-id).
'use strict';

/** One conversation's generator state; `r` is the trace's random source. */
function session(r) {
  let last;
  let lastId;
  const etags = new Map();
  const hex = () => Math.floor(r() * 0x100000000).toString(16).padStart(8, '0') + Math.floor(r() * 0x100000000).toString(16).padStart(8, '0');
  return {
    /** The last call again, verbatim (4% of calls after the first), or undefined. */
    repeat() {
      return last && r() < 0.04 ? last : undefined;
    },
    /** The call that was made. */
    made(c) {
      last = c;
      return c;
    },
    /** A call id: now and then (0.5%) the previous one again. */
    id(fresh) {
      const id = lastId && r() < 0.005 ? lastId : fresh;
      lastId = fresh;
      return id;
    },
    /** The result content of a tool call (a JSON string), or undefined (0.5%) when the result never came. */
    result(tc, envelope) {
      const roll = r();
      if (roll < 0.005) return undefined;
      if (roll < 0.03) return JSON.stringify({ status: 200, body: { ok: false, error: 'upstream timeout', result: null } });
      if (roll < 0.05) return JSON.stringify({ status: 503, body: { ok: false, error: 'unavailable', result: null } });
      if (tc.function.name === 'book_room' && envelope.ok) {
        const room = JSON.parse(tc.function.arguments).room_id;
        const etag = etags.has(room) && r() < 0.3 ? etags.get(room) : hex();
        etags.set(room, etag);
        return JSON.stringify({ ...envelope, result: { ...envelope.result, room_id: room, etag } });
      }
      return JSON.stringify(envelope);
    },
  };
}

module.exports = { session };
