// VS Code's object mutation log (`objectMutationLog.ts` in microsoft/vscode), the form of its chat session files
// (`chatSessions/<id>.jsonl`): one entry a line, `{kind, k?, v?, i?}`. `kind` 0 (Initial) is the whole state `v`,
// replacing what came before; 1 (Set) puts `v` at the path `k` (property names and array indexes); 2 (Push) at
// the array at `k` first cuts it to length `i` when `i` is given, then appends the items of `v` (either may be
// absent); 3 (Delete) removes the value at `k`. An empty `k` changes nothing. Line 0 is often written before the
// first request exists (`requests: []`): the calls arrive in later entries, so the log is replayed to its end.
//
// Replaying keeps where each value came from, so a call read from the final state still points at the line that
// wrote it. The parsed lines are never changed: a container an entry changes is copied first (once).
import type { Doc, JsonPath } from '../parse/doc';
import type { NodeRef } from './builder';
import { isPlainObject, type Obj } from './util';

type Container = Obj | unknown[];
type Key = string | number;

function isContainer(v: unknown): v is Container {
  return Array.isArray(v) || isPlainObject(v);
}

function isPath(k: unknown): k is Key[] {
  return Array.isArray(k) && k.every((s) => typeof s === 'string' || (typeof s === 'number' && Number.isInteger(s) && s >= 0));
}

/** An entry of the log, beyond its kind: `k` a path wherever one is written. */
export function isMutationEntry(v: unknown): v is Obj & { kind: 0 | 1 | 2 | 3 } {
  if (!isPlainObject(v)) return false;
  if (v.kind === 0) return 'v' in v && !('k' in v);
  if (v.kind !== 1 && v.kind !== 2 && v.kind !== 3) return false;
  if (!isPath(v.k)) return false;
  // keys beyond kind/k/v/i are let be: a later VS Code may stamp its entries, and a record so shaped is no other's
  return true;
}

export class MutationLog {
  private root: unknown;
  private rootRef?: NodeRef;
  /** Containers this replay made (copies it may change). */
  private readonly owned = new WeakSet<object>();
  /** Where a copied container's original was. */
  private readonly origin = new WeakMap<object, NodeRef>();
  /** Where the value under a key of a container was written, when an entry put it there. */
  private readonly written = new WeakMap<object, Map<Key, NodeRef>>();

  /** The replayed state, or undefined before any Initial entry. */
  get state(): unknown {
    return this.root;
  }

  /** Apply one line; false when it is no entry or its path does not lead anywhere in the state (skipped). */
  apply(doc: Doc): boolean {
    const e = doc.value;
    if (!isMutationEntry(e)) return false;
    if (e.kind === 0) {
      this.root = e.v;
      this.rootRef = { doc, path: ['v'] };
      return true;
    }
    if (this.root === undefined) return false;
    const path = e.k as Key[];
    if (path.length === 0) return e.kind !== 2;
    const parent = this.ownedAt(path.slice(0, -1));
    if (!parent) return false;
    const last = path[path.length - 1];
    if (e.kind === 2) return this.push(parent, last, doc, e);
    if (Array.isArray(parent) && typeof last !== 'number') return false;
    if (e.kind === 1) {
      (parent as Record<Key, unknown>)[last] = e.v;
      this.note(parent, last, { doc, path: ['v'] });
    } else {
      if (Array.isArray(parent)) parent[last as number] = undefined;
      else delete parent[last as string];
      this.written.get(parent)?.delete(last);
    }
    return true;
  }

  private push(parent: Container, key: Key, doc: Doc, e: Obj): boolean {
    const at = (parent as Record<Key, unknown>)[key];
    if (at !== undefined && !Array.isArray(at)) return false;
    let arr: unknown[];
    if (at === undefined) {
      this.owned.add((arr = []));
      this.note(parent, key, { doc, path: ['v'] });
    } else arr = this.own(at, this.locate(parent, key));
    (parent as Record<Key, unknown>)[key] = arr;
    if (typeof e.i === 'number' && Number.isInteger(e.i) && e.i >= 0 && e.i < arr.length) arr.length = e.i;
    if (Array.isArray(e.v)) {
      e.v.forEach((item, j) => {
        this.note(arr, arr.length, { doc, path: ['v', j] });
        arr.push(item);
      });
    }
    return true;
  }

  private note(c: object, key: Key, ref: NodeRef): void {
    let m = this.written.get(c);
    if (!m) this.written.set(c, (m = new Map<Key, NodeRef>()));
    m.set(key, ref);
  }

  /** A copy of `c` this replay may change (c itself once it is one), remembering where the original was. */
  private own<T extends Container>(c: T, ref: NodeRef): T {
    if (this.owned.has(c)) return c;
    const copy = (Array.isArray(c) ? [...c] : { ...c }) as T;
    this.owned.add(copy);
    this.origin.set(copy, ref);
    return copy;
  }

  /** The container at `path`, made changeable along the way; undefined when the path leads nowhere. */
  private ownedAt(path: Key[]): Container | undefined {
    if (!isContainer(this.root) || !this.rootRef) return undefined;
    let cur: Container = this.own(this.root, this.rootRef);
    this.root = cur;
    for (const seg of path) {
      const next = (cur as Record<Key, unknown>)[seg];
      if (!isContainer(next)) return undefined;
      const copy = this.own(next, this.locate(cur, seg));
      (cur as Record<Key, unknown>)[seg] = copy;
      cur = copy;
    }
    return cur;
  }

  /** Where the value under `key` of container `c` is in the file. */
  private locate(c: object, key: Key): NodeRef {
    const w = this.written.get(c)?.get(key);
    if (w) return w;
    const o = this.origin.get(c) ?? this.rootRef!;
    return { doc: o.doc, path: [...o.path, key] };
  }

  /** Where the node at `path` of the final state is in the file (the nearest written ancestor, then the rest). */
  ref(path: JsonPath): NodeRef {
    let cur: unknown = this.root;
    let base: NodeRef = this.rootRef!;
    let rest: Key[] = [];
    for (const seg of path) {
      const w = isContainer(cur) ? this.written.get(cur)?.get(seg) : undefined;
      const next: unknown = isContainer(cur) ? (cur as Record<Key, unknown>)[seg] : undefined;
      const o = isContainer(next) ? this.origin.get(next) : undefined;
      if (w) {
        base = w;
        rest = [];
      } else if (o) {
        base = o;
        rest = [];
      } else rest.push(seg);
      cur = next;
    }
    return rest.length ? { doc: base.doc, path: [...base.path, ...rest] } : base;
  }
}
