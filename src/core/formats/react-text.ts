// Tool calls written as ReAct text ("Thought: … / Action: <tool> / Action Input: <input> / Observation: <result>"),
// the protocol CrewAI's prompts ask for (and LangChain's ReAct agents, whose log texts keep the same lines). One
// text may hold several steps; each step's input ends at its `Observation:` (or at the next `Thought:` / end of
// text), its observation at the next `Thought:` / `Action:` / `Final Answer:` line. `writeReactCall` is the one
// home of writing a step as a call (CrewAI's messages, ToolBench's ShareGPT records).
import type { NodeRef, SessionBuilder } from './builder';
import { embeddedDoc } from '../parse/doc';
import type { ToolCall } from '../model';
import { at } from './util';

export interface ReactStep {
  action: string;
  /** Offset of the tool name in the text. */
  actionAt: number;
  input: string;
  inputAt: number;
  observation?: string;
  observationAt?: number;
}

// the name's line is taken whole (greedy, no backtracking over its trailing blanks) and trimmed in code
const STEP = /((?:^|\n)[ \t]*Action[ \t]*:[ \t]*)([^\n]+)\n[ \t]*Action[ \t]+Input[ \t]*:[ \t]*/g;
const INPUT_END = /\n[ \t]*(?:Observation[ \t]*:|Thought[ \t]*:|Action[ \t]*:|Final Answer[ \t]*:)/;
const OBSERVATION_END = /\n[ \t]*(?:Thought[ \t]*:|Action[ \t]*:|Final Answer[ \t]*:)/;

/** The tool name of an `Action:` line: its trailing blanks (and a CR before the newline) left out. */
function nameOf(line: string): string {
  let end = line.endsWith('\r') ? line.length - 1 : line.length;
  while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  return end > 0 ? line.slice(0, end) : line;
}

/** A name without the backticks, stars and quotes a model puts around it (a scan, not a regex: a long run of
 *  quotes must not cost quadratic time). */
function unquote(name: string): string {
  const q = (c: string) => c === '`' || c === '*' || c === '"' || c === "'";
  let start = 0;
  let end = name.length;
  while (start < end && q(name[start])) start++;
  while (end > start && q(name[end - 1])) end--;
  return name.slice(start, end);
}

/** The steps a ReAct text holds, in order. */
export function reactSteps(text: string): ReactStep[] {
  const out: ReactStep[] = [];
  STEP.lastIndex = 0;
  for (let m = STEP.exec(text); m; m = STEP.exec(text)) {
    const actionAt = m.index + m[1].length;
    const inputAt = m.index + m[0].length;
    const rest = text.slice(inputAt);
    const end = INPUT_END.exec(rest);
    const input = (end ? rest.slice(0, end.index) : rest).trimEnd();
    const step: ReactStep = { action: unquote(nameOf(m[2])), actionAt, input, inputAt };
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

/** The JSON object an Action Input holds (fences, quotes and trailing text around it left out), and where. */
function inputJson(input: string): { text: string; skip: number; value: unknown } | undefined {
  const start = input.indexOf('{');
  const end = input.lastIndexOf('}');
  if (start < 0 || end < start) return undefined;
  const text = input.slice(start, end + 1);
  try {
    return { text, skip: start, value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** Write one step of the ReAct text `content` (under `key` of the message at `ref`) as a call of `turn`: its
 *  input's JSON object the arguments, found at their characters in the text; an input that holds none is free-form. */
export function writeReactCall(b: SessionBuilder, ref: NodeRef, content: string, s: ReactStep, turn: number, key = 'content'): ToolCall {
  const where = at(ref, key);
  const json = inputJson(s.input);
  return json
    ? b.call({ name: s.action, at: where, namePath: [], argsPath: [], argsAt: { doc: embeddedDoc(ref.doc, where.path, content, s.inputAt + json.skip, json.text, json.value), path: [] },
      args: json.value, expect: 'object', messageText: content }, turn)
    : b.call({ name: s.action, at: where, namePath: [], argsPath: [], args: s.input, expect: 'any', freeform: true, messageText: content }, turn);
}
