// A cache of what was computed for the last few objects, by identity, most recently used first. For per-object
// memos that are asked about the same few objects in a row (the docs of one session's findings, a call with many
// findings): unlike a WeakMap entry per object, it keeps nothing alive through young-generation collections
// beyond those few, and an object that left it is simply computed again.
export class RecentCache<K extends object, V> {
  private readonly keys: (K | undefined)[];
  private readonly values: (V | undefined)[];

  constructor(private readonly size: number) {
    this.keys = new Array<K | undefined>(size).fill(undefined);
    this.values = new Array<V | undefined>(size).fill(undefined);
  }

  /** The value for `key`, made on a miss; `make` is handed the value that falls off the end then (to reuse it). */
  get(key: K, make: (key: K, evicted?: V) => V): V {
    const keys = this.keys;
    const values = this.values;
    let i = 0;
    while (i < this.size && keys[i] !== key) i++;
    const value = i < this.size ? (values[i] as V) : make(key, values[this.size - 1]);
    // move (or insert) it to the front; the least recently used falls off the end
    for (let j = Math.min(i, this.size - 1); j > 0; j--) {
      keys[j] = keys[j - 1];
      values[j] = values[j - 1];
    }
    keys[0] = key;
    values[0] = value;
    return value;
  }
}
