// The recording half of `mcp wrap`, whatever the transport: every JSON-RPC message, both ways, becomes one line of
// the recording (the MCP adapter reads such a file as one session: `tools/call` requests are calls, the server's
// `tools/list` result their contracts, its answers their results). The session lives in the engine's state, each
// line read once; when a call, a tool list or a call's result went by, its findings so far are peeked at and the new
// ones printed at once.
import type { CheckOptions } from '../../core';
import { Coalesced, PeekedSession, settled, type LiveFindings } from './findings';
import type { JsonlOut } from './jsonl';

export type Side = 'client' | 'server';

/** Methods whose request or answer can change the findings. */
const CHECKED = new Set(['tools/call', 'tools/list']);

type Message = Record<string, unknown>;

function isMessage(v: unknown): v is Message {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function idOf(m: Message): string | undefined {
  return typeof m.id === 'string' || typeof m.id === 'number' ? `${typeof m.id}:${m.id}` : undefined;
}

export class McpRecorder {
  private readonly session: PeekedSession;
  /** The client's requests still waiting, by id: the method each asked. */
  private readonly asked = new Map<string, string>();
  private readonly recheck = new Coalesced(() => this.check(false));
  private ended = false;

  /** `shown`: the recording's path as findings print it. */
  constructor(private readonly out: JsonlOut, private readonly shown: string, options: CheckOptions, private readonly findings: LiveFindings) {
    this.session = new PeekedSession(options);
  }

  /** One message as it went by (a line of stdio, an HTTP body, an SSE event's data). Text that is not JSON is
   *  recorded too: `check` reports it as a parse-error, as it is a fault of the protocol. A batch (an array) is
   *  recorded one message a line. */
  message(from: Side, text: string): void {
    if (this.ended || text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.record(text.replace(/\r?\n/g, ' '));
      this.recheck.schedule();
      return;
    }
    const messages = Array.isArray(value) ? value : [value];
    const whole = !Array.isArray(value) && !/[\r\n]/.test(text);
    for (const m of messages) {
      this.record(whole ? text : JSON.stringify(m));
      if (isMessage(m) && this.matters(from, m)) this.recheck.schedule();
    }
  }

  /** The session is over (the server exited, the proxy stops): the last findings, those only the end settles too. */
  end(): void {
    if (this.ended) return;
    this.check(true);
    this.ended = true;
    this.out.close();
  }

  get messages(): number {
    return this.session.size;
  }

  private record(line: string): void {
    this.session.add(line, this.out.append(line));
  }

  private matters(from: Side, m: Message): boolean {
    const id = idOf(m);
    if (typeof m.method === 'string') {
      // only the client's requests: a server's request (sampling, elicitation) has ids of its own
      if (from === 'client' && id !== undefined) this.asked.set(id, m.method);
      // a call made before the tool list came back is checked when it comes (it holds the contracts)
      return from === 'client' && m.method === 'tools/call' && ![...this.asked.values()].includes('tools/list');
    }
    if (from !== 'server' || id === undefined) return false;
    const method = this.asked.get(id);
    this.asked.delete(id);
    return method === undefined || CHECKED.has(method);
  }

  private check(ended: boolean): void {
    if (this.ended) return;
    this.findings.report(this.shown, settled(this.session.check().findings, ended), (o) => this.out.index.position(o));
  }
}
