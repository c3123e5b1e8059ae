// Server-Sent Events split into their `data:` payloads as the bytes pass (any chunking: events, lines and UTF-8
// sequences may be cut anywhere). One home for every live command that watches a stream go by (the model proxy,
// the MCP HTTP wrapper).
import { StringDecoder } from 'node:string_decoder';

export class SseReader {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  private data: string[] = [];

  /** `onData` gets each event's data (its `data:` lines joined with newlines). */
  constructor(private readonly onData: (data: string) => void) {}

  push(chunk: Buffer): void {
    this.pending += this.decoder.write(chunk);
    let start = 0;
    for (let nl = this.pending.indexOf('\n'); nl !== -1; nl = this.pending.indexOf('\n', start)) {
      this.line(this.pending.slice(start, nl > start && this.pending.charCodeAt(nl - 1) === 13 ? nl - 1 : nl));
      start = nl + 1;
    }
    this.pending = this.pending.slice(start);
  }

  /** The stream ended: a last event without its blank line still counts. */
  end(): void {
    this.pending += this.decoder.end();
    if (this.pending) this.line(this.pending);
    this.pending = '';
    this.line('');
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length) this.onData(this.data.join('\n'));
      this.data = [];
    } else if (line.startsWith('data:')) {
      this.data.push(line.slice(line.charCodeAt(5) === 32 ? 6 : 5));
    }
  }
}

/** The JSON of an event's data, or undefined (`[DONE]`, a comment, text). */
export function sseJson(data: string): unknown {
  const t = data.trim();
  if (t === '' || t === '[DONE]') return undefined;
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}
