// Offsets to positions for text that is not open in an editor (VS Code's line breaks: \n, \r\n, \r).
import * as vscode from 'vscode';

export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (ch === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) i++;
        this.starts.push(i + 1);
      } else if (ch === 10 /* \n */) {
        this.starts.push(i + 1);
      }
    }
  }

  positionAt(offset: number): vscode.Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return new vscode.Position(lo, o - this.starts[lo]);
  }
}

/** Something that turns an offset into a position: an open TextDocument or a LineIndex. */
export interface Positioner {
  positionAt(offset: number): vscode.Position;
}

export function rangeOf(p: Positioner, span: { start: number; end: number }): vscode.Range {
  return new vscode.Range(p.positionAt(span.start), p.positionAt(Math.max(span.start, span.end)));
}

const decoder = new TextDecoder('utf-8');

/** File bytes as the editor would show them: UTF-8, without a byte-order mark. */
export function decode(bytes: Uint8Array): string {
  const text = decoder.decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** A document's length in characters without joining its text (getText of a 20 MB document costs tens of ms). */
export function documentLength(doc: vscode.TextDocument): number {
  return doc.offsetAt(doc.lineAt(doc.lineCount - 1).range.end);
}
