// A set of ids (uuids, call ids) kept as 64-bit hashes instead of strings, for state that grows with a long session
// (issue 13.1: "fingerprints as fixed-size hashes"): 8 bytes an id in a table of typed arrays, against ~100 for a
// string in a Set. Two ids with the same 64-bit hash are taken for one (for a million ids, odds about 3e-8). Each id
// gets a slot number, 0, 1, 2, ... in the order ids were added, for facts kept beside it in arrays of their own.

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

export class IdTable {
  /** Open addressing: two words of hash and the slot + 1 per place (0: empty). */
  private keys: Uint32Array;
  private slots: Uint32Array;
  private count = 0;
  private readonly hash = new Uint32Array(2);

  constructor(capacity = 16) {
    let n = 16;
    while (n < capacity * 2) n *= 2;
    this.keys = new Uint32Array(2 * n);
    this.slots = new Uint32Array(n);
  }

  get size(): number {
    return this.count;
  }

  /** The slot of `id`, or -1. */
  get(id: string): number {
    this.hashOf(id);
    const p = this.find(this.hash[0], this.hash[1]);
    return this.slots[p] - 1;
  }

  has(id: string): boolean {
    return this.get(id) >= 0;
  }

  /** The slot of `id`, added (with the next slot number) when it was not there. */
  add(id: string): number {
    this.hashOf(id);
    const [a, b] = this.hash;
    const p = this.find(a, b);
    if (this.slots[p] !== 0) return this.slots[p] - 1;
    this.keys[2 * p] = a;
    this.keys[2 * p + 1] = b;
    this.slots[p] = ++this.count;
    // grown at three quarters full, not half: a one-session 500 MB trace carries over a million ids, and linear
    // probing stays short at this load (about 2.5 places a hit)
    if (4 * this.count > 3 * this.slots.length) this.grow();
    return this.count - 1;
  }

  private hashOf(id: string): void {
    hashPair(id, this.hash);
    if (this.hash[1] === 0) this.hash[1] = 1; // 0,0 marks an empty place: no id hashes to it
  }

  /** The place of hash (a, b): where it is, or the empty place where it would go. */
  private find(a: number, b: number): number {
    const mask = this.slots.length - 1;
    let p = (a ^ Math.imul(b, 0x27d4eb2d)) & mask;
    while (this.slots[p] !== 0 && (this.keys[2 * p] !== a || this.keys[2 * p + 1] !== b)) p = (p + 1) & mask;
    return p;
  }

  private grow(): void {
    const { keys, slots } = this;
    this.keys = new Uint32Array(keys.length * 2);
    this.slots = new Uint32Array(slots.length * 2);
    for (let q = 0; q < slots.length; q++) {
      if (slots[q] === 0) continue;
      const p = this.find(keys[2 * q], keys[2 * q + 1]);
      this.keys[2 * p] = keys[2 * q];
      this.keys[2 * p + 1] = keys[2 * q + 1];
      this.slots[p] = slots[q];
    }
  }
}

/** Numbers by slot, in a typed array that grows (facts kept beside an IdTable's ids). */
export class SlotColumn {
  private values = new Float64Array(16);

  get(slot: number): number {
    return this.values[slot];
  }

  set(slot: number, value: number): void {
    if (slot >= this.values.length) {
      let n = this.values.length;
      while (n <= slot) n *= 2;
      const next = new Float64Array(n);
      next.set(this.values);
      this.values = next;
    }
    this.values[slot] = value;
  }
}
