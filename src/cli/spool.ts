// A file's diagnostics as they are made, never all held (issue 13.2): up to a bound they wait in memory; past it,
// they are sorted and written to a temporary file as a run, and when the file is done the runs and what is left in
// memory are merged back in the report's order. That order is the engine's (`TraceChecker.finish` sorts findings
// by span; equal spans keep the order they were made in, see FindingSink): items are sorted by span, and the few
// with the same span are put in order once every session has ended (`place`). The spool of a thread is plain data
// (SpoolData), so a thread spools and the main thread writes the report from it. A spool of diagnostics that come
// already in the report's order (the slices of a sliced file, in turn) is `ordered`: no sort keys, its runs read
// back one after the other; a slice's diagnostics come from its thread already as the spool's lines (SpoolText),
// so the main thread writes them without making an object of any.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { jsonDiagnosticText, type Finding, type FindingSink, type ReportDiagnostic, type Severity } from '../core';

/** Items kept in memory before a run is written (CONTRACT_GUARD_SPOOL_ITEMS sets it, for tests). */
const MEMORY_ITEMS = Number(process.env.CONTRACT_GUARD_SPOOL_ITEMS) || 4096;

/** One diagnostic with where it sorts: its finding's span, then `order` (with `held`: a rank in a segmented run). */
interface Item {
  s: number;
  e: number;
  o: number;
  /** The segmented run it belongs to, or -1. */
  h: number;
  d: ReportDiagnostic;
}

export type SeverityCounts = Record<Severity, number>;

/** A finished spool: the runs in its file (byte ranges), the items left in memory (sorted), the runs' places. */
export interface SpoolData {
  /** Items came in the report's order (addInOrder, addText): runs hold diagnostics alone, read in turn. */
  ordered: boolean;
  file?: string;
  runs: [number, number][];
  items: Item[];
  placed: [number, number][];
  counts: SeverityCounts;
  count: number;
  /** The runs hold the diagnostics as the JSON report prints them (SpoolText.json). */
  json?: boolean;
}

let spools = 0;

/** What this process's spool files are named from (its threads share the pid), so that all can be found at once. */
const PREFIX = `contract-guard-${process.pid}-`;

/** Removes every spool file of this process: a run stopped by a signal leaves none behind in the temp folder. */
export function removeProcessSpools(): void {
  let names: string[];
  try {
    names = fs.readdirSync(os.tmpdir());
  } catch {
    return;
  }
  for (const name of names) if (name.startsWith(PREFIX) && name.endsWith('.spool')) fs.rmSync(path.join(os.tmpdir(), name), { force: true });
}

/** Diagnostics in the report's order as an ordered spool's lines (made where they are found, on a thread). */
export interface SpoolText {
  text: string;
  count: number;
  counts: SeverityCounts;
  /** Each diagnostic as the JSON report prints it (jsonDiagnosticText: lines of its own), each ended by JSON_END:
   *  the main thread writes them without parsing or printing any again. */
  json?: boolean;
}

/** What ends each diagnostic of a `json` spool: a character JSON text never holds raw. */
const JSON_END = '\x1e';

/** `json`: the run's report is `--format json` without a baseline (EntrySettings.json). */
export function spoolText(diagnostics: Iterable<ReportDiagnostic>, json = false): SpoolText {
  const lines: string[] = [];
  const counts: SeverityCounts = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) {
    lines.push(json ? jsonDiagnosticText(d) : JSON.stringify(d));
    counts[d.severity]++;
  }
  const end = json ? JSON_END : '\n';
  const text = lines.length ? lines.join(end) + end : '';
  return json ? { text, count: lines.length, counts, json } : { text, count: lines.length, counts };
}

/** Items written to the file at a time (a run of thousands as one string would be a large object). */
const WRITE_ITEMS = 256;

export class DiagnosticSpool {
  private items: Item[] = [];
  /** Set by the first item: sorted by span (add) or in the report's order (addInOrder, addText); never both. */
  private ordered?: boolean;
  /** Set by the first text: its diagnostics as the JSON report prints them (SpoolText.json), or not; never both. */
  private json?: boolean;
  private fd?: number;
  private file?: string;
  private size = 0;
  private readonly runs: [number, number][] = [];
  private readonly placed: [number, number][] = [];
  private readonly counts: SeverityCounts = { error: 0, warning: 0, info: 0 };
  private count = 0;

  constructor(private readonly limit = MEMORY_ITEMS) {}

  /** A diagnostic, sorted by `start`, `end` and `order` (`held`: see FindingSink). */
  add(d: ReportDiagnostic, start: number, end: number, order: number, held = -1): void {
    this.mode(false);
    this.items.push({ s: start, e: end, o: order, h: held, d });
    this.counts[d.severity]++;
    this.count++;
    if (this.items.length >= this.limit) this.spill();
  }

  get length(): number {
    return this.count;
  }

  /** Diagnostics already in the report's order (each slice of a sliced file, in turn). */
  addInOrder(d: ReportDiagnostic): void {
    this.mode(true);
    if (this.json) throw new Error('a spool of printed diagnostics takes no other');
    this.json = false;
    this.items.push({ s: this.count, e: this.count, o: 0, h: -1, d });
    this.counts[d.severity]++;
    this.count++;
    if (this.items.length >= this.limit) this.spill();
  }

  /** Diagnostics already in the report's order, as spoolText made them: written as they are. */
  addText(t: SpoolText): void {
    if (t.count === 0) return;
    this.mode(true);
    this.json ??= t.json === true;
    if (this.json !== (t.json === true)) throw new Error('a spool takes printed diagnostics or plain ones, not both');
    if (this.items.length) this.spill(); // what came before goes first
    this.write(t.text);
    for (const s of ['error', 'warning', 'info'] as const) this.counts[s] += t.counts[s];
    this.count += t.count;
  }

  private mode(ordered: boolean): void {
    this.ordered ??= ordered;
    if (this.ordered !== ordered) throw new Error('a spool takes diagnostics sorted by span or in order, not both');
  }

  /** The findings of segmented run `held` stand from `order` on. */
  place(held: number, order: number): void {
    this.placed.push([held, order]);
  }

  /** The items in memory written as one run to the spool's file, sorted (or, ordered, as they are). */
  private spill(): void {
    const items = this.ordered ? this.items : sortBySpan(this.items);
    this.items = [];
    const start = this.size;
    for (let i = 0; i < items.length; i += WRITE_ITEMS) {
      const batch = items.slice(i, i + WRITE_ITEMS);
      this.append((this.ordered ? batch.map((i) => JSON.stringify(i.d)) : batch.map((i) => JSON.stringify([i.s, i.e, i.o, i.h, i.d]))).join('\n') + '\n');
    }
    this.runs.push([start, this.size - start]);
  }

  /** Text written as one run. */
  private write(text: string): void {
    const start = this.size;
    this.append(text);
    this.runs.push([start, this.size - start]);
  }

  /** Text at the end of the spool's file (opened on first use). */
  private append(text: string): void {
    if (this.fd === undefined) {
      this.file = path.join(os.tmpdir(), `${PREFIX}${Date.now().toString(36)}-${spools++}-${Math.random().toString(36).slice(2)}.spool`);
      this.fd = fs.openSync(this.file, 'wx', 0o600);
    }
    // the text itself is written (no Buffer of it: garbage outside the heap)
    const length = Buffer.byteLength(text, 'utf8');
    if (fs.writeSync(this.fd, text) !== length) throw new Error(`${this.file}: a run of findings was written short`);
    this.size += length;
  }

  /** The spool, finished: plain data for SpooledDiagnostics (on this thread or another). */
  done(): SpoolData {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
    const items = this.ordered ? this.items : sortBySpan(this.items);
    return { ordered: this.ordered === true, file: this.file, runs: this.runs, items, placed: this.placed, counts: this.counts, count: this.count, json: this.json || undefined };
  }

  /** Given up (the file is checked another way): its file removed. */
  discard(): void {
    removeSpool(this.done());
  }
}

/** A FindingSink that spools the diagnostics `keep` makes of findings (undefined: the finding is left out). */
export function spoolSink(spool: DiagnosticSpool, keep: (f: Finding) => ReportDiagnostic | undefined): FindingSink {
  return {
    add(f, order, held) {
      const d = keep(f);
      if (d) spool.add(d, f.span.start, f.span.end, order, held);
    },
    place: (held, order) => spool.place(held, order),
  };
}

function sortBySpan(items: Item[]): Item[] {
  return items.sort((a, b) => a.s - b.s || a.e - b.e);
}

export function removeSpool(data: SpoolData): void {
  if (data.file) fs.rmSync(data.file, { force: true });
}

/** What the read buffers of a spool's runs may take together, at most 64 KB each. */
const READ_BUDGET = 8 << 20;

/** A binary min-heap of the sources' current items, by span; ties by source, so a group pops in source order. */
class HeadHeap {
  private readonly heads: { item: Item; j: number }[] = [];

  get size(): number {
    return this.heads.length;
  }

  get top(): { item: Item; j: number } | undefined {
    return this.heads[0];
  }

  private less(a: { item: Item; j: number }, b: { item: Item; j: number }): boolean {
    return a.item.s !== b.item.s ? a.item.s < b.item.s : a.item.e !== b.item.e ? a.item.e < b.item.e : a.j < b.j;
  }

  push(item: Item | undefined, j: number): void {
    if (!item) return; // that source is done
    const h = this.heads;
    h.push({ item, j });
    for (let i = h.length - 1; i > 0; ) {
      const up = (i - 1) >> 1;
      if (!this.less(h[i], h[up])) break;
      [h[i], h[up]] = [h[up], h[i]];
      i = up;
    }
  }

  pop(): { item: Item; j: number } {
    const h = this.heads;
    const top = h[0];
    const last = h.pop()!;
    if (h.length) {
      h[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.less(h[l], h[m])) m = l;
        if (r < h.length && this.less(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }
}

/** A line of a sorted run. */
function runItem(line: string): Item {
  const [s, e, o, h, d] = JSON.parse(line) as [number, number, number, number, ReportDiagnostic];
  return { s, e, o, h, d };
}

/** Reads one run of the spool's file a piece at a time, each line made into a T by `parse`. */
class RunReader<T> {
  private at: number;
  private readonly end: number;
  private lines: string[] = [];
  private next = 0;
  /** The line cut by the last read, in the pieces read so far: joined once its end is read (a line of megabytes
   *  read 64 KB at a time is copied once, not once per piece). */
  private rest: string[] = [];
  /** A UTF-8 sequence cut by a read waits for the next one. */
  private readonly decoder = new StringDecoder('utf8');
  private readonly buf: Buffer;

  /** `sep`: what ends each line (a `json` spool's diagnostics span lines: JSON_END). */
  constructor(private readonly fd: number, [start, length]: [number, number], piece: number, private readonly parse: (line: string) => T, private readonly sep = '\n') {
    this.at = start;
    this.end = start + length;
    this.buf = Buffer.allocUnsafeSlow(Math.min(piece, Math.max(1, length)));
  }

  take(): T | undefined {
    while (this.next >= this.lines.length) {
      if (this.at >= this.end) return undefined;
      const n = fs.readSync(this.fd, this.buf, 0, Math.min(this.buf.length, this.end - this.at), this.at);
      if (n <= 0) throw new Error('the spool file ended early');
      this.at += n;
      const piece = this.decoder.write(this.buf.subarray(0, n)); // lines are JSON: no newline inside
      // the rest holds no separator: the last one read, if any, is in this piece
      const cut = piece.lastIndexOf(this.sep);
      this.next = 0;
      if (cut < 0) {
        this.rest.push(piece);
        this.lines = [];
        continue;
      }
      this.rest.push(piece.slice(0, cut));
      this.lines = this.rest.join('').split(this.sep);
      this.rest = [piece.slice(cut + 1)];
    }
    return this.parse(this.lines[this.next++]);
  }
}

/**
 * A finished spool's diagnostics in the report's order; iterable again and again (a writer may look twice). The
 * merge keeps one item per run in hand; items of equal span, from any run, are ordered by where they were made.
 */
export class SpooledDiagnostics implements Iterable<ReportDiagnostic> {
  private readonly places: Map<number, number>;

  constructor(readonly data: SpoolData) {
    this.places = new Map(data.placed);
  }

  get length(): number {
    return this.data.count;
  }

  get counts(): SeverityCounts {
    return this.data.counts;
  }

  private rank(i: Item): number {
    return i.h < 0 ? i.o : (this.places.get(i.h) ?? 0) + i.o;
  }

  *[Symbol.iterator](): Iterator<ReportDiagnostic> {
    const { data } = this;
    const fd = data.file !== undefined && data.runs.length ? fs.openSync(data.file, 'r') : undefined;
    try {
      if (data.ordered) {
        // the runs in turn (one read buffer at a time), then what was left in memory
        if (fd !== undefined) for (const run of data.runs) {
          const reader = new RunReader(fd, run, 1 << 16, (line) => JSON.parse(line) as ReportDiagnostic, data.json ? JSON_END : '\n');
          for (let d = reader.take(); d; d = reader.take()) yield d;
        }
        for (const i of data.items) yield i.d;
        return;
      }
      let k = 0;
      const sources: (() => Item | undefined)[] = [() => data.items[k++]];
      // the runs' read buffers share a budget: many runs (a long trace of many findings) read in smaller pieces
      const piece = Math.max(4096, Math.min(1 << 16, Math.floor(READ_BUDGET / Math.max(1, data.runs.length))));
      if (fd !== undefined) for (const run of data.runs) {
        const reader = new RunReader(fd, run, piece, runItem);
        sources.push(() => reader.take());
      }
      // a heap of the sources' heads by span: each item costs log(runs), not runs
      const heap = new HeadHeap();
      sources.forEach((take, j) => heap.push(take(), j));
      const group: { item: Item; j: number }[] = [];
      while (heap.size) {
        const { s, e } = heap.top!.item;
        group.length = 0;
        while (heap.size && heap.top!.item.s === s && heap.top!.item.e === e) {
          const head = heap.pop();
          group.push(head);
          heap.push(sources[head.j](), head.j);
        }
        // ties of span in the order they were made; the same rank, in the order of their sources (as stored)
        if (group.length > 1) group.sort((a, b) => this.rank(a.item) - this.rank(b.item) || a.j - b.j);
        for (const g of group) yield g.item.d;
      }
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  }

  /** A `json` spool's diagnostics as the JSON report prints them, in order (undefined for any other spool). */
  jsonText(): Iterable<string> | undefined {
    const { data } = this;
    if (!data.json) return undefined;
    return {
      *[Symbol.iterator]() {
        if (data.file === undefined || !data.runs.length) return;
        const fd = fs.openSync(data.file, 'r');
        try {
          for (const run of data.runs) {
            const reader = new RunReader(fd, run, 1 << 16, (text) => text, JSON_END);
            for (let text = reader.take(); text !== undefined; text = reader.take()) yield text;
          }
        } finally {
          fs.closeSync(fd);
        }
      },
    };
  }

  dispose(): void {
    removeSpool(this.data);
  }
}
