// Session state bounded by what the checks need, not by calls (issue 13.1). A long session of a line format whose
// reader never looks back at settled calls (`LineFormat.segments`) is checked in segments while it is read: once
// enough calls are settled — every call before the latest turn has its result — they and their results are checked
// with the state the earlier segments left (pairing's facts, each cross-call check's own state: checks/check.ts
// `SessionState`), and then let go. What is kept between segments is facts and fixed-size hashes, never calls.
// A whole session is one segment: the checks run the same code either way.
import type { SessionState } from './checks/check';
import type { AssistantText, Finding, Session, ToolCall, ToolResult } from './model';

/** Where findings go as they are made (CheckOptions.findings), for a caller that writes them out in the order
 *  `finish` would have sorted them: by span, equal spans in the order the file's findings were made (`order`). A
 *  finding of a session checked in segments no longer waits for its session to end: it comes `held` (its run's
 *  number) with its rank in the run, and `place` says, once the session ended, at which `order` the run's first
 *  finding stands (the rest follow it). Findings given here carry no `session` index. */
export interface FindingSink {
  add(f: Finding, order: number, held?: number): void;
  place(held: number, order: number): void;
}

/** A session is cut when at least this many of its calls are settled (and, when asked, at the latest settled point). */
export const SEGMENT_CALLS = 2000;
/** Calls still waiting for results after this many: the session is cut anyway (said once, as a limit). */
export const FORCE_CALLS = 8 * SEGMENT_CALLS;

/** Where a session checked in segments stands: what its earlier segments left, and how much of it they took. */
export interface SessionRun {
  state: SessionState;
  /** Calls, results and texts of the session already checked (indexes into its arrays). */
  calls: number;
  results: number;
  texts: number;
  /** Its findings so far, waiting for the session's index (given when the session is complete, as before). */
  findings: Finding[];
  /** With a FindingSink, its findings left as they were made instead: the run's number and how many there were. */
  held?: { id: number; count: number };
  /** The latest turn a cut was tried at, and with how few calls (a cut before the latest turn can only appear
   *  when a new turn begins, or when fewer settled calls will do). */
  tried: number;
  triedMin: number;
}

export function newRun(): SessionRun {
  return { state: { checks: {} }, calls: 0, results: 0, texts: 0, findings: [], tried: 0, triedMin: 0 };
}

/** The part of a session a segment checks: the settled calls, results and texts, with every definition so far. */
export interface Cut {
  calls: number;
  results: number;
  texts: number;
  /** Cut although calls before it still wait for results (FORCE_CALLS reached). */
  forced: boolean;
}

/**
 * Where the session can be cut now: before the calls of its latest turn, when every call before them is answered
 * by a result before them (by id or index), so no later line can change what the checks saw (`settled`: the
 * format reads a call's result with the call, so they all are). A call still
 * unanswered when two later turns have begun is given up on (the session went on without it): it waits in
 * orphan-call's state, and a result that would come for it after all is only known by its id. `min`: how many
 * settled calls make a segment worth checking. Turns only grow in the builder, so "before the latest turn" is a
 * prefix of the calls, of the results and of the texts alike.
 */
export function cutOf(session: Session, run: SessionRun, min = SEGMENT_CALLS, settled = false): Cut | undefined {
  const { calls, results } = session;
  if (calls.length - run.calls < fewestToCut(min)) return undefined;
  const latest = calls[calls.length - 1].turn;
  if (latest === run.tried && min >= run.triedMin) return undefined;
  run.tried = latest;
  run.triedMin = min;
  let c = calls.length - 1;
  while (c > run.calls && calls[c - 1].turn >= latest) c--;
  if (c - run.calls < Math.max(min, 1) || calls[c - 1].turn >= latest) return undefined;
  let r = run.results;
  while (r < results.length && results[r].turn < latest) r++;
  for (let k = r; k < results.length; k++) if (results[k].turn < latest) return undefined; // turns went back
  const texts = session.texts ?? [];
  let t = run.texts;
  while (t < texts.length && texts[t].turn < latest) t++;
  const forced = calls.length - run.calls >= FORCE_CALLS;
  const done = settled || answered(calls, run.calls, c, results, run.results, r, latest - 1);
  if (!forced && !done) return undefined;
  return { calls: c, results: r, texts: t, forced: !done };
}

/** The calls past a run's a session needs before cutOf looks for a cut. */
function fewestToCut(min: number): number {
  return Math.max(min, 1) + 1;
}

/** Too few calls for any cut, whatever its run (cutOf's first test; a run's calls only lower the count): asked
 *  before the run is looked up, since the engine asks after every line for every open session, and most are short
 *  (Claude Code 20 MB read whole: 28 open sessions a line, 9% of the check spent in that loop). */
export function tooShortToCut(session: Session, min = SEGMENT_CALLS): boolean {
  return session.calls.length < fewestToCut(min);
}

/** Every call in [c0, c1) of turn `recent` or later is answered by a result in [r0, r1), by id or by index. */
function answered(calls: readonly ToolCall[], c0: number, c1: number, results: readonly ToolResult[], r0: number, r1: number, recent: number): boolean {
  const ids = new Set<string>();
  const indexes = new Set<number>();
  for (let k = r0; k < r1; k++) {
    const r = results[k];
    if (r.callId !== undefined && r.callId !== '') ids.add(r.callId);
    else if (r.callIndex !== undefined) indexes.add(r.callIndex);
  }
  for (let k = c0; k < c1; k++) {
    const call = calls[k];
    if (call.turn >= recent && !(call.id !== undefined && call.id !== '' && ids.has(call.id)) && !indexes.has(call.index)) return false;
  }
  return true;
}

/** The segment session of a cut (or of the rest, when the session is complete): the calls, results and texts it
 *  takes, with the session's definitions and end facts. */
export function segmentOf(session: Session, run: SessionRun, cut?: Cut): Session {
  const calls = session.calls.slice(run.calls, cut?.calls);
  const results = session.results.slice(run.results, cut?.results);
  const texts = session.texts?.slice(run.texts, cut?.texts);
  const seg: Session = { ...session, calls, results, texts: texts?.length ? texts : undefined };
  return seg;
}

/** Let go of what a segment took: the session's arrays keep their length (readers count on it) and lose the
 *  objects, so the lines they came from can be collected. */
export function release(session: Session, run: SessionRun, cut: Cut): void {
  const calls = session.calls as (ToolCall | undefined)[];
  for (let k = run.calls; k < cut.calls; k++) calls[k] = undefined;
  const results = session.results as (ToolResult | undefined)[];
  for (let k = run.results; k < cut.results; k++) results[k] = undefined;
  const texts = session.texts as (AssistantText | undefined)[] | undefined;
  if (texts) for (let k = run.texts; k < cut.texts; k++) texts[k] = undefined;
  run.calls = cut.calls;
  run.results = cut.results;
  run.texts = cut.texts;
}

/** A copy of a run to finish without disturbing the run itself (`TraceChecker.peek`). Check states hold Maps,
 *  Sets, arrays and plain objects, and a few kept calls and results: structuredClone copies them all. Pairing's
 *  facts are only read by a last segment: shared, not copied. */
export function cloneRun(run: SessionRun): SessionRun {
  const state = { pairing: run.state.pairing, checks: structuredClone(run.state.checks) };
  return { state, calls: run.calls, results: run.results, texts: run.texts, findings: [...run.findings], tried: run.tried, triedMin: run.triedMin };
}
