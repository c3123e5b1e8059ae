// Kiro CLI (and Amazon Q Developer CLI) conversation exports: `{conversation_id, history}` with Rust-enum style keys.
// `history` entries are `{user, assistant, request_metadata}` objects, or — older `/save` files — `[user, assistant]`
// pairs. Calls: `assistant.ToolUse.tool_uses[]` `{id, name, args}` (`args` is what ran; `orig_args` what the model
// first wrote, when Kiro rewrote it). Results: a later `user.content` of `ToolUseResults` (`{tool_use_results: [...]}`,
// or the bare list some exports write) or `CancelledToolUses` (`{prompt, tool_use_results}`: the calls the user
// stopped), each `{tool_use_id, content: [{Text} | {Json}], status}`; a status other than "Success" is an honest
// failure, and a result with a status says success otherwise; a shell's `{Json: {exit_status, stdout, stderr}}`
// holds its exit code (the bare code, "0"). A single content block is the payload itself.
// Newer Kiro CLI sessions (`~/.kiro/sessions/cli/<id>.jsonl`, beside a `<id>.json` of metadata) are a journal, one
// record per line `{version, kind, data: {message_id?, content: [{kind, data}], meta?}}`: `Prompt` (the user),
// `AssistantMessage` (`text`, `thinking` and `toolUse` blocks `{toolUseId, name, input}`: the calls of one message are
// one turn), `ToolResults` (`toolResult` blocks `{toolUseId, content, status}`, by `toolUseId`, else the earliest call
// still unanswered; a `json` block's
// `exit_status` "exit status: N" is a shell's exit code; `data.results` may repeat the outcome as `{Success}` /
// `{Error}`), and others (`SystemPrompt`, ...) that hold no calls.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { SessionBuilder } from './builder';
import { lonePayload } from './lone-block';
import type { Doc, JsonPath } from '../parse/doc';
import type { TransportSignals } from '../model';
import { EarliestUnanswered, isPlainObject, str, textOf, type Obj } from './util';

/** One history entry as its user and assistant halves, with their paths. */
interface Entry {
  user?: { value: Obj; path: JsonPath };
  assistant?: { value: Obj; path: JsonPath };
}

function entryOf(h: unknown, path: JsonPath): Entry | undefined {
  if (isPlainObject(h)) {
    return {
      user: isPlainObject(h.user) ? { value: h.user, path: [...path, 'user'] } : undefined,
      assistant: isPlainObject(h.assistant) ? { value: h.assistant, path: [...path, 'assistant'] } : undefined,
    };
  }
  if (Array.isArray(h) && h.length > 0 && h.length <= 2 && h.every(isPlainObject)) {
    const [user, assistant] = h;
    return { user: { value: user, path: [...path, 0] }, assistant: assistant ? { value: assistant, path: [...path, 1] } : undefined };
  }
  return undefined;
}

const ASSISTANT_KINDS = ['ToolUse', 'Response'];

function isExport(v: unknown): v is Obj & { history: unknown[] } {
  if (!isPlainObject(v) || !Array.isArray(v.history) || v.history.length === 0) return false;
  const entries = v.history.map((h) => entryOf(h, []));
  if (!entries.every((e) => e !== undefined)) return false;
  if (v.history.every((h) => isPlainObject(h))) {
    // the object layout: every entry names its halves
    if (!v.history.every((h) => 'user' in h || 'assistant' in h)) return false;
    return entries.some((e) => e.assistant !== undefined);
  }
  // the pair layout proves itself by an enum-keyed assistant half
  return entries.some((e) => e.assistant !== undefined && ASSISTANT_KINDS.some((k) => k in e.assistant!.value));
}

/** The result list of a user content: `ToolUseResults` or `CancelledToolUses`, either nesting. */
function resultsOf(content: Obj): { list: unknown[]; path: JsonPath } | undefined {
  for (const kind of ['ToolUseResults', 'CancelledToolUses']) {
    const v = content[kind];
    if (Array.isArray(v)) return { list: v, path: [kind] };
    if (isPlainObject(v) && Array.isArray(v.tool_use_results)) return { list: v.tool_use_results, path: [kind, 'tool_use_results'] };
  }
  return undefined;
}

/** What a result returned: a single `{Text}` / `{Json}` block (the legacy export), or a journal's single `{kind,
 *  data}` block, is that value; several stay a list (lone-block.ts). */
function payloadOf(r: Obj, keys: readonly string[]): { value: unknown; path: JsonPath } {
  const { value, path } = lonePayload(r.content, keys);
  return { value, path: ['content', ...path] };
}

function readEntry(b: SessionBuilder, doc: Doc, e: Entry): void {
  const content = e.user && isPlainObject(e.user.value.content) ? e.user.value.content : undefined;
  const results = content ? resultsOf(content) : undefined;
  if (results && e.user) {
    results.list.forEach((r, j) => {
      if (!isPlainObject(r)) return;
      const status = str(r.status);
      const payload = payloadOf(r, ['Text', 'Json']);
      const transport: TransportSignals = status === undefined ? {} : { isError: status.toLowerCase() !== 'success' };
      // a shell's result says how its command ended: "Success" is the tool's, the exit code the command's
      const code = exitCodeOf(r.content);
      if (code !== undefined) transport.exitCode = code;
      b.result({ at: { doc, path: [...e.user!.path, 'content', ...results.path, j] }, callId: str(r.tool_use_id), payload: payload.value,
        payloadPath: payload.path, transport });
    });
  }
  if (e.user) b.breakTurn();
  const a = e.assistant?.value;
  const use = a && isPlainObject(a.ToolUse) ? a.ToolUse : undefined;
  if (use && Array.isArray(use.tool_uses) && use.tool_uses.length > 0) {
    const turn = b.newTurn();
    use.tool_uses.forEach((u, j) => {
      if (!isPlainObject(u) || typeof u.name !== 'string') return;
      b.call({ name: u.name, id: str(u.id), at: { doc, path: [...e.assistant!.path, 'ToolUse', 'tool_uses', j] }, namePath: ['name'],
        argsPath: ['args'], args: u.args, expect: 'object', messageText: textOf(use.content) }, turn);
    });
    return;
  }
  const said = use ?? (a && isPlainObject(a.Response) ? a.Response : undefined);
  if (said && e.assistant) b.assistantText({ doc, path: [...e.assistant.path, use ? 'ToolUse' : 'Response', 'content'] }, said.content);
  else if (e.assistant) b.breakTurn();
}

// ---- the CLI's session journal ------------------------------------------------------------------------------

const JOURNAL_KINDS = new Set(['Prompt', 'AssistantMessage', 'ToolResults', 'SystemPrompt']);

function isJournalRecord(v: unknown): v is Obj & { kind: string; data: Obj } {
  return isPlainObject(v) && 'version' in v && typeof v.kind === 'string' && isPlainObject(v.data) && Array.isArray(v.data.content)
    && v.data.content.every((b) => isPlainObject(b) && typeof b.kind === 'string');
}

/** A journal record with a call or a result: Kiro's beyond doubt. */
function isJournalToolRecord(v: unknown): boolean {
  return isJournalRecord(v) && JOURNAL_KINDS.has(v.kind) && (v.data.content as Obj[]).some((b) => b.kind === 'toolUse' || b.kind === 'toolResult');
}

/** A shell result's `exit_status`: the text of the process's status ("exit status: 1"), or its bare code ("1"), in
 *  the result's JSON block (a journal's `{kind: "json", data}`, an export's `{Json}`). */
function exitCodeOf(content: unknown): number | undefined {
  const blocks = Array.isArray(content) ? content : [];
  for (const b of blocks) {
    if (!isPlainObject(b)) continue;
    const d = b.kind === 'json' && isPlainObject(b.data) ? b.data : isPlainObject(b.Json) ? b.Json : undefined;
    const m = typeof d?.exit_status === 'string' ? /^(?:exit status: )?(-?\d+)$/.exec(d.exit_status) : null;
    if (m) return Number(m[1]);
  }
  return undefined;
}

/** What a `toolResult` (or the record's `results` entry for it) says of how the call went. */
function journalTransport(r: Obj, outcome: unknown): TransportSignals {
  const t: TransportSignals = {};
  const status = str(r.status);
  if (status !== undefined) t.isError = status.toLowerCase() !== 'success';
  else if (isPlainObject(outcome) && isPlainObject(outcome.result)) {
    if ('Error' in outcome.result) t.isError = true;
    else if ('Success' in outcome.result) t.isError = false;
  }
  const code = exitCodeOf(r.content);
  if (code !== undefined) t.exitCode = code;
  return t;
}

function readJournalRecord(b: SessionBuilder, doc: Doc, waiting: EarliestUnanswered): void {
  const v = doc.value;
  if (!isJournalRecord(v)) return;
  const blocks = v.data.content as Obj[];
  if (v.kind === 'AssistantMessage') {
    const uses = blocks.map((block, i) => ({ block, i })).filter(({ block }) => block.kind === 'toolUse' && isPlainObject(block.data) && typeof block.data.name === 'string');
    if (uses.length === 0) {
      b.breakTurn();
      return;
    }
    const turn = b.newTurn();
    const text = blocks.filter((x) => x.kind === 'text' && typeof x.data === 'string').map((x) => x.data as string).join('\n');
    for (const { block, i } of uses) {
      const u = block.data as Obj;
      b.call({ name: u.name as string, id: str(u.toolUseId), at: { doc, path: ['data', 'content', i, 'data'] }, namePath: ['name'], argsPath: ['input'],
        args: u.input, expect: 'object', messageText: text || undefined }, turn);
    }
    return;
  }
  if (v.kind === 'ToolResults') {
    const outcomes = isPlainObject(v.data.results) ? v.data.results : {};
    blocks.forEach((block, i) => {
      if (block.kind !== 'toolResult' || !isPlainObject(block.data)) return;
      const r = block.data;
      const id = str(r.toolUseId);
      const payload = payloadOf(r, ['data']);
      // a result without its id answers the earliest call still waiting (results come in the calls' order)
      const callIndex = id === undefined ? waiting.get() : undefined;
      b.result({ at: { doc, path: ['data', 'content', i, 'data'] }, callId: id, callIndex, payload: payload.value, payloadPath: payload.path,
        transport: journalTransport(r, id === undefined ? undefined : outcomes[id]) });
    });
  }
  b.breakTurn();
}

export const kiro: FormatAdapter = {
  id: 'kiro',
  lines: {
    claims: isJournalToolRecord,
    accepts: isJournalRecord,
    open({ builder }) {
      const waiting = new EarliestUnanswered(builder);
      return { read: (doc) => readJournalRecord(builder, doc, waiting) };
    },
  },
  document: {
    claims(v) {
      return isExport(v);
    },
    read(doc, emit) {
      const v = doc.value as Obj & { history: unknown[] };
      singleSession((b) => {
        v.history.forEach((h, i) => {
          const e = entryOf(h, ['history', i]);
          if (e) readEntry(b, doc, e);
        });
      }, emit, str(v.conversation_id));
    },
  },
};
