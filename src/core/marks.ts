// Where the calls of a checked trace are: the editor's lenses, outline, traces view and links to one call use them.
// A check on a worker thread (the editor's background check, the workspace check's pool) keeps no model on the
// other side, so the thread collects these marks as the sessions are checked and sends them (the first MAX_MARKS
// calls: no outline or editor usefully shows more than that).
import { spanOf } from './parse/doc';
import type { CheckedSession } from './engine';

export const MAX_MARKS = 10000;
/** How long a call's argument summary gets (the outline's detail, the traces view). */
const SUMMARY_CHARS = 60;

export interface CallMark {
  session: number;
  /** The call's index in its session. */
  index: number;
  turn: number;
  tool: string;
  /** Where the call starts and ends in the text. */
  offset: number;
  end: number;
  /** A short, one-line text of the arguments (`key: value, …`). */
  summary: string;
  /** The session's own id, on the first call of each session only. */
  sessionId?: string;
}

/** Collects marks session by session (CheckOptions.onSession), up to a limit. */
export class CallMarks {
  readonly marks: CallMark[] = [];

  constructor(private readonly limit = MAX_MARKS) {}

  add(checked: CheckedSession, session: number): void {
    for (const call of checked.session.calls) {
      if (this.marks.length >= this.limit) return;
      const span = spanOf(call.at);
      const mark: CallMark = { session, index: call.index, turn: call.turn, tool: call.name, offset: span.start, end: span.end, summary: argSummary(call.args) };
      if (call.index === 0 && checked.session.id !== undefined) mark.sessionId = checked.session.id;
      this.marks.push(mark);
    }
  }
}

export function callMarks(model: readonly CheckedSession[], limit = MAX_MARKS): CallMark[] {
  const collector = new CallMarks(limit);
  model.forEach((checked, session) => collector.add(checked, session));
  return collector.marks;
}

/** The call whose text holds `offset` (the innermost, as calls do not nest: the last that starts at or before it). */
export function markAt(marks: readonly CallMark[], offset: number): CallMark | undefined {
  let lo = 0;
  let hi = marks.length - 1;
  let best: CallMark | undefined;
  // marks are in file order within a session; sessions may interleave, so fall back to a scan when unsorted
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (marks[mid].offset <= offset) {
      best = marks[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (best && offset <= best.end) return best;
  return marks.find((m) => m.offset <= offset && offset <= m.end);
}

/** `key: value, key: value` of an argument object, cut short without rendering large values whole. */
export function argSummary(args: unknown, max = SUMMARY_CHARS): string {
  if (args === undefined) return '';
  let out = '';
  const push = (s: string): boolean => {
    out += s;
    return out.length < max;
  };
  if (typeof args === 'object' && args !== null && !Array.isArray(args)) {
    for (const [k, v] of Object.entries(args)) {
      if (!push(`${out ? ', ' : ''}${k}: ${scalar(v, max)}`)) break;
    }
  } else push(scalar(args, max));
  out = out.replace(/\s+/g, ' ');
  return out.length > max ? out.slice(0, max - 1) + '…' : out;
}

function scalar(v: unknown, max: number): string {
  if (typeof v === 'string') return JSON.stringify(v.length > max ? v.slice(0, max) : v);
  if (Array.isArray(v)) return v.length ? '[…]' : '[]';
  if (typeof v === 'object' && v !== null) return Object.keys(v).length ? '{…}' : '{}';
  return String(v);
}
