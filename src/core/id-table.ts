// A set of ids (uuids, call ids) kept as 64-bit hashes instead of strings, for state that grows with a long session
// (issue 13.1: "fingerprints as fixed-size hashes"): 8 bytes a place in a table of typed arrays (12 with a slot
// number), against ~100 for a string in a Set. Two ids with the same 64-bit hash are taken for one (for a million
// ids, odds about 3e-8). An IdTable gives each id a slot number, 0, 1, 2, ... in the order ids were added, for facts
// kept beside it in columns of their own (SlotColumn: chunked, so a long session's columns never hold twice what
// they need, nor a copy while they grow).

/** Two independent 32-bit hashes of a string (FNV-1a, and a multiply-xorshift mix), into `out`: the one string
 *  hash of the core (fingerprint.ts `hash64` prints it). */
export function hashPair(s: string, out: Uint32Array): void {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  out[0] = a;
  out[1] = b;
}

/** A set of ids as 64-bit hashes: two words a place, open addressing, no strings kept (a long session's line
 *  uuids). `add` says whether the id is new: its number in the order of adding, or -1 when it was there. */
export class IdSet {
  /** Two words of hash per place (0, 0: empty; no id hashes to it). */
  protected keys: Uint32Array;
  protected count = 0;
  protected readonly hash = new Uint32Array(2);

  constructor(capacity = 16) {
    let n = 16;
    while (n < capacity * 2) n *= 2;
    this.keys = new Uint32Array(2 * n);
  }

  get size(): number {
    return this.count;
  }

  protected get places(): number {
    return this.keys.length >> 1;
  }

  has(id: string): boolean {
    hashPairOf(id, this.hash);
    return !this.empty(this.find(this.hash[0], this.hash[1]));
  }

  /** The new id's number (0, 1, 2, ...), or -1 when it was there already. */
  add(id: string): number {
    hashPairOf(id, this.hash);
    const p = this.find(this.hash[0], this.hash[1]);
    if (!this.empty(p)) return -1;
    this.put(p, ++this.count);
    // grown at three quarters full, not half: a one-session 500 MB trace carries over a million ids, and linear
    // probing stays short at this load (about 2.5 places a hit)
    if (4 * this.count > 3 * this.places) this.grow();
    return this.count - 1;
  }

  /** Writes the current hash at place `p` (`slot`: the id's number + 1, for a table that keeps it). */
  protected put(p: number, _slot: number): void {
    this.keys[2 * p] = this.hash[0];
    this.keys[2 * p + 1] = this.hash[1];
  }

  protected empty(p: number): boolean {
    return this.keys[2 * p + 1] === 0;
  }

  /** The place of hash (a, b): where it is, or the empty place where it would go. */
  protected find(a: number, b: number): number {
    const keys = this.keys;
    const mask = (keys.length >> 1) - 1;
    let p = (a ^ Math.imul(b, 0x27d4eb2d)) & mask;
    while (keys[2 * p + 1] !== 0 && (keys[2 * p] !== a || keys[2 * p + 1] !== b)) p = (p + 1) & mask;
    return p;
  }

  /** Doubles the places; `moved(from, to)` lets a subclass move what it keeps beside each place. */
  protected grow(moved?: (from: number, to: number) => void): void {
    const keys = this.keys;
    this.keys = new Uint32Array(keys.length * 2);
    for (let q = 0; 2 * q < keys.length; q++) {
      if (keys[2 * q + 1] === 0) continue;
      const p = this.find(keys[2 * q], keys[2 * q + 1]);
      this.keys[2 * p] = keys[2 * q];
      this.keys[2 * p + 1] = keys[2 * q + 1];
      moved?.(q, p);
    }
  }
}

/** An IdSet that numbers its ids (slots 0, 1, 2, ... in the order they were added), for facts kept beside them. */
export class IdTable extends IdSet {
  /** The slot + 1 per place (0: empty). */
  private slots: Uint32Array;

  constructor(capacity = 16) {
    super(capacity);
    this.slots = new Uint32Array(this.places);
  }

  /** The slot of `id`, or -1. */
  get(id: string): number {
    hashPairOf(id, this.hash);
    return this.slots[this.find(this.hash[0], this.hash[1])] - 1;
  }

  /** The slot of `id`, added (with the next slot number) when it was not there. */
  override add(id: string): number {
    const slot = super.add(id);
    return slot >= 0 ? slot : this.get(id);
  }

  protected override put(p: number, slot: number): void {
    super.put(p, slot);
    this.slots[p] = slot;
  }

  protected override grow(): void {
    const slots = this.slots;
    const next = new Uint32Array(slots.length * 2);
    super.grow((from, to) => (next[to] = slots[from]));
    this.slots = next;
  }
}

/** hashPair as the tables store it: 0,0 marks an empty place, so no id hashes to it. */
function hashPairOf(id: string, out: Uint32Array): void {
  hashPair(id, out);
  if (out[1] === 0) out[1] = 1;
}

/** Slots per chunk of a SlotColumn: it grows a chunk at a time, never copied, never twice the size it needs. */
const CHUNK_BITS = 12;
const CHUNK = 1 << CHUNK_BITS;

/** Whole numbers below 2^32 by slot (facts kept beside an IdTable's ids), in chunks of a Uint32Array. Unset slots
 *  read 0. */
export class SlotColumn {
  private readonly chunks: Uint32Array[] = [];

  get(slot: number): number {
    const chunk = this.chunks[slot >>> CHUNK_BITS];
    return chunk === undefined ? 0 : chunk[slot & (CHUNK - 1)];
  }

  set(slot: number, value: number): void {
    const k = slot >>> CHUNK_BITS;
    while (this.chunks.length <= k) this.chunks.push(new Uint32Array(CHUNK));
    this.chunks[k][slot & (CHUNK - 1)] = value;
  }
}
