// The call marks of a checked result (src/core/marks.ts), made once per result from its model, for the lenses, the
// outline, the traces view and links; a check on a worker thread sends its own.
import { callMarks, type CallMark, type CheckedSession } from '../core';

const cached = new WeakMap<object, CallMark[]>();

/** The marks of a checked result: from its model (once per result), else those the worker sent. */
export function marksOf(result: { model?: readonly CheckedSession[] }, sent?: readonly CallMark[]): readonly CallMark[] {
  if (!result.model) return sent ?? [];
  let marks = cached.get(result);
  if (!marks) {
    marks = callMarks(result.model);
    cached.set(result, marks);
  }
  return marks;
}
