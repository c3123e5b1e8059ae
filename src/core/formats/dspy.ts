// DSPy ReAct trajectories (dspy/predict/react.py): a ReAct prediction keeps its steps in `trajectory`, a flat dict
// with one numbered group of keys per step: `thought_N` (`reasoning_N` in some versions), `tool_name_N`,
// `tool_args_N` (the arguments as an object) and `observation_N` (what the tool returned). A tool that raised
// leaves `"Execution error in <tool>: <error>"` as its observation: DSPy's error channel. `finish` is ReAct's own
// tool that ends the loop (observation "Completed."). Read: the trajectory itself, or an object holding it in
// `trajectory` (a saved prediction, an eval record; deeper wrappers are found by the engine), one session each.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { NodeRef, SessionBuilder } from './builder';
import { at, isPlainObject, type Obj } from './util';

function isTrajectory(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.tool_name_0 === 'string' && 'tool_args_0' in v;
}

function readTrajectory(b: SessionBuilder, ref: NodeRef, t: Obj): void {
  for (let n = 0; typeof t[`tool_name_${n}`] === 'string'; n++) {
    const name = t[`tool_name_${n}`] as string;
    const argsKey = `tool_args_${n}`;
    const turn = b.newTurn();
    b.call({ name, at: ref, namePath: [`tool_name_${n}`], argsPath: [argsKey], args: t[argsKey], expect: 'object' }, turn);
    const obsKey = `observation_${n}`;
    if (!(obsKey in t)) continue;
    const obs = t[obsKey];
    const failed = typeof obs === 'string' && obs.startsWith(`Execution error in ${name}:`);
    b.result({ at: ref, callIndex: b.session.calls.length - 1, payloadPath: [obsKey], payload: obs, transport: { isError: failed } });
    b.breakTurn();
  }
}

export const dspy: FormatAdapter = {
  id: 'dspy',
  document: {
    claims: (v) => isTrajectory(v) || (isPlainObject(v) && isTrajectory(v.trajectory)),
    read(doc, emit) {
      const v = doc.value;
      const root: NodeRef = { doc, path: [] };
      if (isTrajectory(v)) singleSession((b) => readTrajectory(b, root, v), emit);
      else if (isPlainObject(v) && isTrajectory(v.trajectory)) singleSession((b) => readTrajectory(b, at(root, 'trajectory'), v.trajectory as Obj), emit);
    },
  },
};
