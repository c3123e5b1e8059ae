// A Doc is one unit of parsed JSON: a JSONL line, a whole JSON file, or the decoded text of a string that held
// JSON (OpenAI's string-encoded `arguments`). Values come from JSON.parse (the fast path); source spans and
// number lexemes are recovered lazily, with jsonc-parser, only for the docs that have findings.
import { parseTree, findNodeAtLocation, type Node as TreeNode } from 'jsonc-parser';
import type { Span } from '../model';
import { escapeMap } from './escapes';

export type JsonPath = (string | number)[];

export interface Doc {
  /** The JSON text of this unit. */
  readonly text: string;
  /** Offset of text[0] in the file (top-level docs only). */
  readonly base: number;
  /** The decoded value (JSON.parse of text). */
  readonly value: unknown;
  /** For a doc decoded from a JSON string: the string node that holds it, and where in the decoded string
   *  this doc's text starts (after a markdown fence or leading blanks). */
  readonly parent?: { doc: Doc; path: JsonPath; skip: number };
  /** Lazily built syntax tree (null when the text does not parse, which cannot happen for a decoded doc). */
  tree?: TreeNode | null;
}

/** Where a finding points: a node of a doc, or the key of that node. */
export interface Anchor {
  doc: Doc;
  path: JsonPath;
  part?: 'value' | 'key';
}

export function topDoc(text: string, base: number, value: unknown): Doc {
  return { text, base, value };
}

/** A doc for JSON found inside the string at `path` of `parent`; `decoded` is that string's value. */
export function embeddedDoc(parent: Doc, path: JsonPath, decoded: string, skip: number, text: string, value: unknown): Doc {
  void decoded;
  return { text, base: 0, value, parent: { doc: parent, path, skip } };
}

function treeOf(doc: Doc): TreeNode | null {
  if (doc.tree === undefined) doc.tree = parseTree(doc.text, undefined, { disallowComments: true }) ?? null;
  return doc.tree;
}

function nodeAt(doc: Doc, path: JsonPath): TreeNode | undefined {
  const tree = treeOf(doc);
  if (!tree) return undefined;
  return path.length === 0 ? tree : findNodeAtLocation(tree, path);
}

/** Map a [start, end) range of a doc's text to absolute file offsets, through every string it was decoded from. */
function toFile(doc: Doc, start: number, end: number): Span {
  const p = doc.parent;
  if (!p) return { start: doc.base + start, end: doc.base + end };
  const holder = nodeAt(p.doc, p.path);
  if (!holder) return toFile(p.doc, 0, 0);
  const literal = p.doc.text.substr(holder.offset, holder.length);
  const map = escapeMap(literal);
  const at = (i: number) => holder.offset + map[Math.min(i + p.skip, map.length - 1)];
  return toFile(p.doc, at(start), at(end));
}

/** The absolute span of an anchor: one token (the value, or the key). */
export function spanOf(anchor: Anchor): Span {
  let node = nodeAt(anchor.doc, anchor.path);
  if (!node) return toFile(anchor.doc, 0, 0);
  if (anchor.part === 'key' && node.parent?.type === 'property' && node.parent.children?.[0]) {
    node = node.parent.children[0];
  }
  return toFile(anchor.doc, node.offset, node.offset + node.length);
}

// Only a doc whose text has a digit followed by '.', 'e' or 'E' can hold a number written as a non-integer
// lexeme; for all others the value JSON.parse gave is the lexeme, and no tree is needed.
const FLOATISH = /\d[.eE]/;

/** The number as written at `path`, or undefined when it is written as a plain integer. */
export function nonIntegerLexeme(doc: Doc, path: JsonPath): string | undefined {
  if (!FLOATISH.test(doc.text)) return undefined;
  const node = nodeAt(doc, path);
  if (!node || node.type !== 'number') return undefined;
  const lexeme = doc.text.substr(node.offset, node.length);
  return /[.eE]/.test(lexeme) ? lexeme : undefined;
}

/** The lexeme of the number at `path` as written (falls back to the decoded value). */
export function numberLexeme(doc: Doc, path: JsonPath, value: number): string {
  return nonIntegerLexeme(doc, path) ?? String(value);
}
