// `mcp wrap -- COMMAND`: the MCP server runs as our child, and we stand between it and the client on stdio. The
// bytes go through untouched both ways (stdout carries the server's protocol and nothing else; its stderr is ours);
// a copy of each newline-delimited message is handed to the recorder. Signals we get are passed to the server,
// and its exit (a code, or the signal that ended it) is ours.
import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { McpRecorder, Side } from './mcp-recorder';
import { UsageError } from '../files';

/** Splits a byte stream into lines (a message is one line of UTF-8, `\r\n` tolerated). */
export class LineSplitter {
  private parts: Buffer[] = [];

  constructor(private readonly onLine: (text: string) => void) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, start)) {
      this.parts.push(chunk.subarray(start, i));
      this.emit();
      start = i + 1;
    }
    if (start < chunk.length) this.parts.push(chunk.subarray(start));
  }

  /** The stream ended: a last message without its newline still counts. */
  end(): void {
    if (this.parts.length) this.emit();
  }

  private emit(): void {
    const text = Buffer.concat(this.parts).toString('utf8');
    this.parts = [];
    this.onLine(text.endsWith('\r') ? text.slice(0, -1) : text);
  }
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const FORWARDED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Copy `from` to `to` untouched (with backpressure), and each line of it to the recorder. */
function tap(from: Readable, to: Writable, side: Side, recorder: McpRecorder): LineSplitter {
  const lines = new LineSplitter((text) => recorder.message(side, text));
  from.on('data', (chunk: Buffer) => {
    if (!to.destroyed && !to.write(chunk)) {
      from.pause();
      to.once('drain', () => from.resume());
    }
    lines.push(chunk);
  });
  // the other side went away (the client closed its end of our stdout): the copy stops, the recording goes on
  to.on('error', () => undefined);
  return lines;
}

/** Run the server and relay stdio until it exits. */
export function wrapStdio(command: string[], recorder: McpRecorder, stdin: Readable = process.stdin, stdout: Writable = process.stdout): Promise<Exit> {
  const [program, ...args] = command;
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['pipe', 'pipe', 'inherit'], windowsHide: true });
    const forward = (signal: NodeJS.Signals) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    };
    const stopForwarding = () => {
      for (const s of FORWARDED) process.off(s, forward);
    };
    for (const s of FORWARDED) process.on(s, forward);
    child.once('error', (e: NodeJS.ErrnoException) => {
      stopForwarding();
      stdin.pause();
      reject(new UsageError(`cannot run ${program}: ${e.code === 'ENOENT' ? 'no such command' : e.message}`));
    });
    const fromClient = tap(stdin, child.stdin, 'client', recorder);
    stdin.once('end', () => {
      fromClient.end();
      child.stdin.end();
    });
    const fromServer = tap(child.stdout, stdout, 'server', recorder);
    child.stdout.once('end', () => fromServer.end());
    child.stdin.on('error', () => undefined); // the server closed its stdin: what the client still sends is dropped
    child.once('close', (code, signal) => {
      stopForwarding();
      // stop reading the client, or its open pipe would keep us alive after the server is gone
      stdin.pause();
      stdin.removeAllListeners('data');
      if (stdin === process.stdin) process.stdin.destroy();
      resolve({ code, signal });
    });
  });
}
