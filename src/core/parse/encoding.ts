// The encodings a trace file arrives in. Nearly all are UTF-8, but a trace redirected to a file by Windows
// PowerShell 5 (`agent > trace.jsonl`, `Out-File`) is UTF-16LE with a byte-order mark, and other Windows tools
// write UTF-16 too. Such bytes are turned into UTF-8 here, once, where bytes enter (a file's head, its stream, a
// buffer), so that everything after them (cutting lines at byte 10, slicing for threads, UTF-8 decoding) is the
// same for every file. Positions are those of the text, as an editor shows it (VS Code reads the BOM too).

export type Utf16 = 'utf-16le' | 'utf-16be';

/** Whether these first bytes of a file are UTF-16, and which byte order: a BOM (FF FE, FE FF), or, without one, a
 *  JSON text's first characters (always ASCII: `{`, `[`, whitespace, `"`) each with a zero byte beside it. */
export function utf16Of(head: Uint8Array): Utf16 | undefined {
  if (head.length < 2) return undefined;
  if (head[0] === 0xff && head[1] === 0xfe) return head.length >= 4 && head[2] === 0 && head[3] === 0 ? undefined : 'utf-16le'; // FF FE 00 00 is UTF-32
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  const units = Math.min(4, head.length >> 1);
  if (units < 2) return undefined;
  const ascii = (b: number) => b === 0x09 || b === 0x0a || b === 0x0d || (b >= 0x20 && b < 0x7f);
  let le = true;
  let be = true;
  for (let i = 0; i < units; i++) {
    const lo = head[2 * i];
    const hi = head[2 * i + 1];
    le &&= hi === 0 && ascii(lo);
    be &&= lo === 0 && ascii(hi);
  }
  return le ? 'utf-16le' : be ? 'utf-16be' : undefined;
}

/**
 * Turns a stream of bytes into UTF-8 as it arrives: UTF-8 (or anything not UTF-16) passes through untouched; UTF-16
 * is decoded (its BOM dropped, a code unit or pair cut between pieces carried over) and encoded as UTF-8. The kind
 * is decided by the first piece of at least 8 bytes (or the last piece, when the whole is shorter).
 */
export class Utf8Transcoder {
  private decoder?: TextDecoder;
  private decided = false;
  private held?: Uint8Array;
  private readonly encoder = new TextEncoder();

  /** The UTF-8 bytes of this piece (the piece itself, not a copy, when nothing is transcoded). */
  push(bytes: Uint8Array): Uint8Array {
    if (!this.decided) {
      const head = this.held ? concat(this.held, bytes) : bytes;
      if (head.length < 8) {
        this.held = new Uint8Array(head); // a copy: a caller may reuse its buffer
        return EMPTY;
      }
      this.held = undefined;
      this.decide(head);
      bytes = head;
    }
    return this.decoder ? this.encoder.encode(this.decoder.decode(bytes, { stream: true })) : bytes;
  }

  /** What is left at the end of the stream. */
  end(): Uint8Array {
    if (!this.decided) {
      const head = this.held ?? EMPTY;
      this.held = undefined;
      this.decide(head);
      return this.decoder ? this.encoder.encode(this.decoder.decode(head)) : head;
    }
    return this.decoder ? this.encoder.encode(this.decoder.decode()) : EMPTY;
  }

  private decide(head: Uint8Array): void {
    this.decided = true;
    const utf16 = utf16Of(head);
    if (utf16) this.decoder = new TextDecoder(utf16);
  }
}

const EMPTY = new Uint8Array(0);

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** A whole buffer as UTF-8 bytes: itself unless it is UTF-16. */
export function utf8Of(bytes: Uint8Array): Uint8Array {
  const utf16 = utf16Of(bytes.subarray(0, 8));
  return utf16 ? new TextEncoder().encode(new TextDecoder(utf16).decode(bytes)) : bytes;
}

/** A stream of bytes as UTF-8 bytes (see Utf8Transcoder). */
export async function* utf8Stream(pieces: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const t = new Utf8Transcoder();
  for await (const piece of pieces) {
    const out = t.push(piece);
    if (out.length) yield out;
  }
  const rest = t.end();
  if (rest.length) yield rest;
}

const UTF8 = new TextDecoder('utf-8');

/** A file's bytes as the text an editor shows: UTF-8 or UTF-16, without its byte-order mark. */
export function decodeText(bytes: Uint8Array): string {
  const utf16 = utf16Of(bytes.subarray(0, 8));
  const text = utf16 ? new TextDecoder(utf16).decode(bytes) : UTF8.decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
