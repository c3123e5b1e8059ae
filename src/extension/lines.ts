// Offsets to positions for text that is not open in an editor, by VS Code's line breaks (\n, \r\n, \r): the core's
// LineIndex with its 'editor' rule, as 0-based vscode.Positions.
import * as vscode from 'vscode';
import { decodeText, LineIndex } from '../core';

export class EditorLines {
  private readonly index: LineIndex;

  constructor(private readonly text: string) {
    this.index = LineIndex.of(text, 'editor');
  }

  positionAt(offset: number): vscode.Position {
    const p = this.index.position(Math.max(0, Math.min(offset, this.text.length)));
    return new vscode.Position(p.line - 1, p.column - 1);
  }
}

/** Something that turns an offset into a position: an open TextDocument or a LineIndex. */
export interface Positioner {
  positionAt(offset: number): vscode.Position;
}

export function rangeOf(p: Positioner, span: { start: number; end: number }): vscode.Range {
  return new vscode.Range(p.positionAt(span.start), p.positionAt(Math.max(span.start, span.end)));
}

/** File bytes as the editor would show them: UTF-8 or UTF-16 (core parse/encoding.ts), without a byte-order mark. */
export function decode(bytes: Uint8Array): string {
  return decodeText(bytes);
}

/** A document's length in characters without joining its text (getText of a 20 MB document costs tens of ms). */
export function documentLength(doc: vscode.TextDocument): number {
  return doc.offsetAt(doc.lineAt(doc.lineCount - 1).range.end);
}
