// The messages between the compare panel (extension host) and its page (webview). Types only: both sides import
// them, neither imports the other. Everything from a trace travels as data and is shown as text. A place in a file
// travels as a number (`ref`) that the host resolves: the page never names a file it may open.
import type { Severity, SideStats } from '../core';

/** A side's counts (the core's SideStats) and what the editor adds. */
export interface SideView extends SideStats {
  /** The files or folders the side was made of. */
  label: string;
  /** Files read that no reader understood. */
  skipped: number;
  /** The side is frozen fixtures (mock coverage is shown). */
  fixtures: boolean;
}

export interface ShapeView {
  /** `{a, b}` or `(not an object)`. */
  label: string;
  keys: string[] | null;
  countA: number;
  countB: number;
  isNew: boolean;
  gone: boolean;
  breaks: boolean;
  extra: string[];
  missing: string[];
  codes: string[];
  /** The example call's arguments (short JSON) and where it is (`file:line`). */
  args: string;
  where: string;
  ref: number;
}

export interface ToolView {
  tool: string;
  callsA: number;
  callsB: number;
  isNew: boolean;
  shapes: ShapeView[];
}

export interface FindingView {
  code: string;
  severity: Severity;
  message: string;
  tool?: string;
  where: string;
  ref: number;
}

export interface FindingGroup {
  /** How many there are; `items` may hold fewer (the first ones) in a very large run. */
  total: number;
  items: FindingView[];
}

export interface UncoveredView {
  label: string;
  keys: string[] | null;
  count: number;
  breaks: boolean;
  codes: string[];
  args: string;
  where: string;
  /** The example call: reveal it, or freeze it. */
  ref: number;
}

export interface CoverageToolView {
  tool: string;
  calls: number;
  fixtureCalls: number;
  shapes: number;
  covered: number;
  uncovered: UncoveredView[];
}

export interface CoverageView {
  fixtures: { files: number; calls: number; tools: number };
  shapes: number;
  uncovered: number;
  tools: CoverageToolView[];
}

export interface CompareView {
  a: SideView;
  b: SideView;
  tools: ToolView[];
  newShapes: number;
  goneShapes: number;
  findings: { new: FindingGroup; fixed: FindingGroup; unchanged: FindingGroup };
  /** Present when A is frozen fixtures (or the compare was asked against the fixtures). */
  coverage?: CoverageView;
  /** B brings a new error, warning or shape (what `contract-guard compare` exits 1 for). */
  differs: boolean;
  /** Milliseconds the compare took in the extension host (reading, checking on the threads, comparing). */
  millis: number;
  generation: number;
}

export type ToPage =
  /** First, once the page is ready: what it keeps for a reload. */
  | { type: 'runs'; state: ComparePageState }
  | { type: 'progress'; message: string }
  | { type: 'compare'; view: CompareView }
  | { type: 'error'; message: string }
  | { type: 'frozen'; ref: number; status: 'written' | 'exists' | 'failed'; path: string };

/** What the page shows, read back from its own DOM (the in-host tests check this, not what was sent). */
export interface PageReport {
  generation: number;
  /** `tool {keys}` of the shapes marked new in B, and of those gone from B. */
  newShapes: string[];
  goneShapes: string[];
  /** `code tool` of the findings listed as new, and as fixed. */
  newFindings: string[];
  fixedFindings: string[];
  unchanged: number;
  /** `tool {keys}` of the uncovered shapes listed, and of those frozen from the page. */
  uncovered: string[];
  frozen: string[];
}

export type FromPage =
  | { type: 'ready' }
  | { type: 'reveal'; ref: number }
  | { type: 'freeze'; ref: number }
  | { type: 'rendered'; report: PageReport };

/** What the page keeps with `setState`: the runs (the serializer compares them again after a reload). */
export interface ComparePageState {
  a: string[];
  b: string[];
  fixtures: boolean;
  closed?: string[];
  scrollTop?: number;
}
