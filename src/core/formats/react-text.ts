// Tool calls written as ReAct text ("Thought: … / Action: <tool> / Action Input: <input> / Observation: <result>"),
// the protocol CrewAI's prompts ask for (and LangChain's ReAct agents, whose log texts keep the same lines). One
// text may hold several steps; each step's input ends at its `Observation:` (or at the next `Thought:` / end of
// text), its observation at the next `Thought:` / `Action:` / `Final Answer:` line.

export interface ReactStep {
  action: string;
  /** Offset of the tool name in the text. */
  actionAt: number;
  input: string;
  inputAt: number;
  observation?: string;
  observationAt?: number;
}

const STEP = /(?:^|\n)[ \t]*Action[ \t]*:[ \t]*([^\n]+?)[ \t]*\r?\n[ \t]*Action[ \t]+Input[ \t]*:[ \t]*/g;
const INPUT_END = /\n[ \t]*(?:Observation[ \t]*:|Thought[ \t]*:|Action[ \t]*:|Final Answer[ \t]*:)/;
const OBSERVATION_END = /\n[ \t]*(?:Thought[ \t]*:|Action[ \t]*:|Final Answer[ \t]*:)/;

/** The steps a ReAct text holds, in order. */
export function reactSteps(text: string): ReactStep[] {
  const out: ReactStep[] = [];
  STEP.lastIndex = 0;
  for (let m = STEP.exec(text); m; m = STEP.exec(text)) {
    const actionAt = m.index + m[0].indexOf(m[1]);
    const inputAt = m.index + m[0].length;
    const rest = text.slice(inputAt);
    const end = INPUT_END.exec(rest);
    const input = (end ? rest.slice(0, end.index) : rest).replace(/\s+$/, '');
    const step: ReactStep = { action: m[1].replace(/^[`*"']+|[`*"']+$/g, ''), actionAt, input, inputAt };
    if (end && /^\n[ \t]*Observation/.test(end[0])) {
      const obsStart = inputAt + end.index + end[0].length;
      const after = text.slice(obsStart);
      const lead = after.length - after.replace(/^[ \t]*/, '').length;
      const stop = OBSERVATION_END.exec(after);
      step.observationAt = obsStart + lead;
      step.observation = (stop ? after.slice(0, stop.index) : after).trim();
    }
    out.push(step);
    STEP.lastIndex = inputAt;
  }
  return out;
}
