// Where the calls of a checked trace start, for the lenses above them (freeze, decision table). From the model when
// the check kept one; a check on a worker thread keeps none on this side, so the worker collects these marks as the
// sessions are checked and sends them (the first MAX_MARKS calls: no editor shows more lenses than that). No
// `vscode` import: the worker uses it too.
import { spanOf, type CheckedSession } from '../core';

export const MAX_MARKS = 500;

export interface CallMark {
  session: number;
  /** The call's index in its session. */
  index: number;
  turn: number;
  tool: string;
  /** Where the call starts in the text. */
  offset: number;
}

/** Collects marks session by session (CheckOptions.onSession), up to a limit. */
export class CallMarks {
  readonly marks: CallMark[] = [];

  constructor(private readonly limit = MAX_MARKS) {}

  add(checked: CheckedSession, session: number): void {
    for (const call of checked.session.calls) {
      if (this.marks.length >= this.limit) return;
      this.marks.push({ session, index: call.index, turn: call.turn, tool: call.name, offset: spanOf(call.at).start });
    }
  }
}

export function callMarks(model: readonly CheckedSession[], limit = MAX_MARKS): CallMark[] {
  const collector = new CallMarks(limit);
  model.forEach((checked, session) => collector.add(checked, session));
  return collector.marks;
}
