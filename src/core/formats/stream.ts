// Streamed model output, assembled into calls:
// - OpenAI Chat completion chunks (`chat.completion.chunk`): tool calls grow from `delta.tool_calls[]` fragments
//   merged by `index`; the first non-empty `id` and `name` win (an empty-string `id` in a later chunk does not
//   overwrite the real one); arguments are the concatenated fragments.
// - OpenAI Responses streaming events (`response.output_item.added/done`, `response.function_call_arguments.*`):
//   the `output_item.done` item (or the `arguments.done` event) carries the complete call.
// - Anthropic Messages SSE events: `content_block_start` opens a `tool_use` block, `input_json_delta` fragments
//   (`partial_json`) are concatenated, `content_block_stop` completes it.
// A call's name points at the chunk that named it; its arguments at the chunk that completed them (when they came
// in one piece, findings point inside them as usual). JSONL of events, a JSON array of them, or SSE text (through
// the HTTP cassette adapter) are all read by the same assembler.
import type { FormatAdapter } from './adapter';
import { singleSession } from './adapter';
import type { ArgsExpectation, NodeRef, SessionBuilder } from './builder';
import { readResponsesItem } from './openai-responses';
import type { Doc, JsonPath } from '../parse/doc';
import { isPlainObject, str, type Obj, keyText } from './util';

const ANTHROPIC_EVENTS = new Set(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop', 'ping']);

export function isChatChunk(v: unknown): v is Obj {
  return isPlainObject(v) && v.object === 'chat.completion.chunk' && Array.isArray(v.choices);
}

export function isResponsesEvent(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.type === 'string' && v.type.startsWith('response.') && typeof v.sequence_number === 'number';
}

export function isAnthropicEvent(v: unknown): v is Obj {
  return isPlainObject(v) && typeof v.type === 'string' && ANTHROPIC_EVENTS.has(v.type) && v.type !== 'ping';
}

export function isStreamEvent(v: unknown): v is Obj {
  return isChatChunk(v) || isResponsesEvent(v) || isAnthropicEvent(v);
}

/** A call whose parts are still arriving. */
export interface Pending {
  id?: string;
  name?: string;
  nameAt?: NodeRef;
  namePath: JsonPath;
  fragments: string[];
  /** The node of the fragment that completed the arguments so far. */
  argsAt?: NodeRef;
  /** Arguments given whole (an Anthropic block's `input` object before any delta). */
  whole?: { value: unknown; at: NodeRef };
}

/** Calls being assembled from streamed fragments, under keys the stream chooses (message|block). The one home of
 *  how fragments become a call: the chunk that named the tool is the call, the fragments are concatenated (an
 *  empty fragment adds nothing: a call without arguments streams ""), arguments given whole count when no fragment
 *  came. Used by StreamAssembler and by the stream readers of other providers (Bedrock, Cohere). */
export class PendingCalls {
  private readonly open = new Map<string, Pending>();

  constructor(private readonly b: SessionBuilder) {}

  /** The call open under `key`, opened when new. */
  start(key: string, namePath: JsonPath): Pending {
    let p = this.open.get(key);
    if (!p) this.open.set(key, (p = { namePath, fragments: [] }));
    return p;
  }

  get(key: string): Pending | undefined {
    return this.open.get(key);
  }

  /** Forget the call open under `key` (a stream item written out whole by other means). */
  drop(key: string): void {
    this.open.delete(key);
  }

  keys(): string[] {
    return [...this.open.keys()];
  }

  /** Add an arguments fragment found at `at`. */
  fragment(p: Pending, text: string, at: NodeRef): void {
    p.fragments.push(text);
    if (text !== '') p.argsAt = at;
  }

  /** Write out the call open under `key`; `turn` is asked only when there is a call to write. `expect`: how the
   *  format sends arguments given whole (fragments are always text). */
  complete(key: string, turn: () => number, expect: ArgsExpectation = 'any'): void {
    const p = this.open.get(key);
    this.open.delete(key);
    if (!p || p.name === undefined || !p.nameAt) return;
    const pieces = p.fragments.filter((f) => f !== '');
    const whole = pieces.length === 0 ? p.whole : undefined;
    this.b.call({
      name: p.name,
      id: p.id,
      at: p.nameAt,
      namePath: p.namePath,
      argsPath: [],
      argsAt: whole ? whole.at : p.argsAt ?? p.nameAt,
      args: whole ? whole.value : pieces.join(''),
      expect: whole ? expect : 'any',
      assembled: !whole && pieces.length > 1,
    }, turn());
  }
}

/** Assembles one stream's calls into a session; `flush` writes out what is still open. */
export class StreamAssembler {
  private readonly calls: PendingCalls;
  private readonly emittedItems = new Set<string>();
  private turn?: number;
  private turnKey?: string;

  constructor(private readonly b: SessionBuilder) {
    this.calls = new PendingCalls(b);
  }

  event(doc: Doc, path: JsonPath, v: Obj): void {
    if (isChatChunk(v)) this.chatChunk(doc, path, v);
    else if (isResponsesEvent(v)) this.responsesEvent(doc, path, v);
    else if (isAnthropicEvent(v)) this.anthropicEvent(doc, path, v);
  }

  flush(): void {
    for (const key of this.calls.keys()) this.complete(key);
  }

  private turnFor(key: string | undefined): number {
    if (this.turn === undefined || key !== this.turnKey) {
      this.turn = this.b.newTurn();
      this.turnKey = key;
    }
    return this.turn;
  }

  private pending(key: string, namePath: JsonPath): Pending {
    return this.calls.start(key, namePath);
  }

  private complete(key: string): void {
    this.calls.complete(key, () => this.turnFor(key.split('|')[0]));
  }

  private chatChunk(doc: Doc, path: JsonPath, v: Obj): void {
    const response = str(v.id) ?? '';
    (v.choices as unknown[]).forEach((c, ci) => {
      if (!isPlainObject(c)) return;
      const choice = typeof c.index === 'number' ? c.index : ci;
      const delta = c.delta;
      if (isPlainObject(delta) && Array.isArray(delta.tool_calls)) {
        delta.tool_calls.forEach((tc, ti) => {
          if (!isPlainObject(tc)) return;
          const key = `${response}|${choice}|${typeof tc.index === 'number' ? tc.index : ti}`;
          const p = this.pending(key, ['function', 'name']);
          const tcPath = [...path, 'choices', ci, 'delta', 'tool_calls', ti];
          if (typeof tc.id === 'string' && tc.id !== '' && p.id === undefined) p.id = tc.id;
          const fn = isPlainObject(tc.function) ? tc.function : undefined;
          if (fn && typeof fn.name === 'string' && fn.name !== '' && p.name === undefined) {
            p.name = fn.name;
            p.nameAt = { doc, path: tcPath };
          }
          if (fn && typeof fn.arguments === 'string') this.calls.fragment(p, fn.arguments, { doc, path: [...tcPath, 'function', 'arguments'] });
        });
      }
      if (typeof c.finish_reason === 'string') {
        for (const key of this.calls.keys()) if (key.startsWith(`${response}|${choice}|`)) this.complete(key);
      }
    });
  }

  private responsesEvent(doc: Doc, path: JsonPath, v: Obj): void {
    const item = isPlainObject(v.item) ? v.item : undefined;
    const itemId = str(item?.id) ?? str(v.item_id) ?? `#${keyText(v.output_index)}`;
    const response = 'responses';
    switch (v.type) {
      case 'response.output_item.added':
        if (item?.type === 'function_call' && typeof item.name === 'string') {
          const p = this.pending(`${response}|${itemId}`, ['item', 'name']);
          p.name = item.name;
          p.id = str(item.call_id) ?? str(item.id);
          p.nameAt = { doc, path };
        }
        return;
      case 'response.function_call_arguments.delta': {
        const p = this.calls.get(`${response}|${itemId}`);
        if (p && typeof v.delta === 'string') this.calls.fragment(p, v.delta, { doc, path: [...path, 'delta'] });
        return;
      }
      case 'response.function_call_arguments.done': {
        const p = this.calls.get(`${response}|${itemId}`);
        if (p && typeof v.arguments === 'string') {
          p.fragments = [v.arguments];
          p.argsAt = { doc, path: [...path, 'arguments'] };
        }
        return;
      }
      case 'response.output_item.done':
        if (item?.type === 'function_call' && typeof item.name === 'string') {
          this.calls.drop(`${response}|${itemId}`);
          if (this.emittedItems.has(itemId)) return;
          this.emittedItems.add(itemId);
          this.turnFor(response);
          readResponsesItem(this.b, doc, [...path, 'item'], item);
        }
        return;
      case 'response.completed': {
        const r = isPlainObject(v.response) ? v.response : undefined;
        const output = Array.isArray(r?.output) ? (r!.output as unknown[]) : [];
        output.forEach((it, i) => {
          if (!isPlainObject(it) || it.type !== 'function_call' || typeof it.name !== 'string') return;
          const id = str(it.id) ?? `#${i}`;
          if (this.emittedItems.has(id)) return;
          this.calls.drop(`${response}|${id}`);
          this.emittedItems.add(id);
          this.turnFor(response);
          readResponsesItem(this.b, doc, [...path, 'response', 'output', i], it);
        });
        return;
      }
      default:
    }
  }

  private anthropicEvent(doc: Doc, path: JsonPath, v: Obj): void {
    const index = typeof v.index === 'number' ? v.index : -1;
    if (v.type === 'message_start') {
      const m = isPlainObject(v.message) ? v.message : undefined;
      this.turnKey = undefined;
      this.turn = undefined;
      this.turnFor(str(m?.id) ?? 'message');
      return;
    }
    const key = `${this.turnKey ?? 'message'}|${index}`;
    if (v.type === 'content_block_start') {
      const block = isPlainObject(v.content_block) ? v.content_block : undefined;
      if (block && (block.type === 'tool_use' || block.type === 'server_tool_use' || block.type === 'mcp_tool_use') && typeof block.name === 'string') {
        const p = this.pending(key, ['name']);
        p.name = block.name;
        p.id = str(block.id);
        p.nameAt = { doc, path: [...path, 'content_block'] };
        if ('input' in block) p.whole = { value: block.input, at: { doc, path: [...path, 'content_block', 'input'] } };
      }
      return;
    }
    if (v.type === 'content_block_delta') {
      const d = isPlainObject(v.delta) ? v.delta : undefined;
      const p = this.calls.get(key);
      if (p && d?.type === 'input_json_delta' && typeof d.partial_json === 'string') this.calls.fragment(p, d.partial_json, { doc, path: [...path, 'delta', 'partial_json'] });
      return;
    }
    if (v.type === 'content_block_stop') this.complete(key);
  }
}

export const stream: FormatAdapter = {
  id: 'stream',
  document: {
    claims(v) {
      return Array.isArray(v) && v.length > 0 && v.every(isStreamEvent);
    },
    read(doc, emit) {
      singleSession((b) => {
        const a = new StreamAssembler(b);
        (doc.value as Obj[]).forEach((e, i) => a.event(doc, [i], e));
        a.flush();
      }, emit);
    },
  },
  lines: {
    claims: isStreamEvent,
    accepts: (v) => isPlainObject(v) && v.type === 'ping',
    open({ builder }) {
      const a = new StreamAssembler(builder);
      return { read: (doc) => a.event(doc, [], doc.value as Obj), finish: () => a.flush() };
    },
  },
};
