// Reports written as they are made: every output format of `check` is a ReportWriter, fed one file at a time (its
// diagnostics final, the baseline applied) and closed with the totals, so no report is ever held whole. The
// one-shot renderers (renderJson, renderSarif, ...) are the same writers run over a whole Report, so both give the
// same bytes.
import type { Report, ReportEntry } from './model';

export type ReportSummary = Report['summary'];

export interface ReportWriter {
  /** What comes before the first file. */
  start(): string;
  /** One file's part, in pieces (a file with many findings is never one string). */
  file(file: ReportEntry): Iterable<string>;
  /** What comes after the last file, with the totals of every file. */
  end(summary: ReportSummary): string;
}

/** The whole text of a report through a writer. */
export function renderWith(writer: ReportWriter, report: Report): string {
  const out: string[] = [writer.start()];
  for (const f of report.files) for (const s of writer.file(f)) out.push(s);
  out.push(writer.end(report.summary));
  return out.join('');
}

/** `JSON.stringify(value, null, 2)` with every line but the first indented by `pad` (strings hold no raw newline). */
export function indented(value: unknown, pad: string): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, '\n' + pad);
}

/**
 * A JSON array written item by item, inside a document pretty-printed with two spaces: `text` is that document
 * with the array empty (`"key": []` on a line of its own, at `pad`), cut around it. Byte-identical to printing the
 * whole document with the items in place.
 */
export class OpenArray {
  private count = 0;
  readonly before: string;
  private readonly after: string;
  private readonly itemPad: string;

  constructor(text: string, key: string, private readonly pad: string) {
    const marker = `\n${pad}${JSON.stringify(key)}: []`;
    const at = text.lastIndexOf(marker);
    if (at < 0) throw new Error(`no empty array ${key} in the document`);
    this.before = text.slice(0, at + marker.length - 1);
    this.after = text.slice(at + marker.length - 1);
    this.itemPad = pad + '  ';
  }

  /** What goes before the next item: the separator and the item's indentation. */
  next(): string {
    return (this.count++ === 0 ? '\n' : ',\n') + this.itemPad;
  }

  /** One item, with what separates it from the one before. */
  item(value: unknown): string {
    return this.next() + indented(value, this.itemPad);
  }

  /** The indentation of the items (a caller printing an item itself indents its lines by it). */
  get indent(): string {
    return this.itemPad;
  }

  /** The closing bracket and the rest of the document (`tail`: the document's end as printed now, when it changed). */
  close(tail = this.after): string {
    return (this.count === 0 ? '' : '\n' + this.pad) + tail;
  }
}

/** The text of `doc` after its empty array `key` at `pad` (see OpenArray): how a document ends once its items are out. */
export function afterArray(doc: unknown, key: string, pad: string): string {
  const text = JSON.stringify(doc, null, 2) + '\n';
  const marker = `\n${pad}${JSON.stringify(key)}: []`;
  const at = text.lastIndexOf(marker);
  if (at < 0) throw new Error(`no empty array ${key} in the document`);
  return text.slice(at + marker.length - 1);
}
