// A streamed answer (Server-Sent Events) assembled into the response the same call would have got unstreamed, so a
// recorded exchange reads like a plain one: Chat Completions chunks into a `chat.completion`, Anthropic Messages
// events into a `message`, Responses events into the `response` (its `response.completed` event carries it whole).
// Fed each event's JSON as it passes (sse.ts splits the bytes), so it never holds the stream's text, only what the
// response keeps.

import { isPlainObject, type Obj } from '../../core';

export type ApiKind = 'chat' | 'messages' | 'responses';

/** The response a stream adds up to, event by event. `response()` may be asked at any point (a cut stream). */
export interface Assembler {
  event(payload: unknown): void;
  response(): Obj | undefined;
}

export function assembler(kind: ApiKind): Assembler {
  if (kind === 'chat') return new ChatAssembler();
  if (kind === 'messages') return new MessagesAssembler();
  return new ResponsesAssembler();
}

interface ChatChoice {
  index: number;
  message: Obj & { role: string; content: string | null; tool_calls?: Obj[] };
  finish_reason: unknown;
  logprobs?: unknown;
}

/** `chat.completion.chunk` deltas: content and refusal concatenated, tool calls by `index`, arguments joined. */
class ChatAssembler implements Assembler {
  private head: Obj | undefined;
  private readonly choices = new Map<number, ChatChoice>();
  private usage: unknown;

  event(p: unknown): void {
    if (!isPlainObject(p)) return;
    if (!this.head) {
      const { choices: _c, usage: _u, ...rest } = p;
      this.head = { ...rest, object: 'chat.completion' };
    }
    if (p.usage !== undefined && p.usage !== null) this.usage = p.usage;
    if (!Array.isArray(p.choices)) return;
    for (const c of p.choices) {
      if (!isPlainObject(c)) continue;
      const index = typeof c.index === 'number' ? c.index : 0;
      let choice = this.choices.get(index);
      if (!choice) this.choices.set(index, (choice = { index, message: { role: 'assistant', content: null }, finish_reason: null }));
      if (c.finish_reason !== undefined && c.finish_reason !== null) choice.finish_reason = c.finish_reason;
      if (c.logprobs !== undefined && c.logprobs !== null) choice.logprobs = c.logprobs;
      const d = isPlainObject(c.delta) ? c.delta : {};
      const m = choice.message;
      if (typeof d.role === 'string') m.role = d.role;
      if (typeof d.content === 'string') m.content = (m.content ?? '') + d.content;
      if (typeof d.refusal === 'string') m.refusal = (typeof m.refusal === 'string' ? m.refusal : '') + d.refusal;
      if (Array.isArray(d.tool_calls)) for (const tc of d.tool_calls) if (isPlainObject(tc)) this.toolCall(m, tc);
    }
  }

  private toolCall(m: ChatChoice['message'], tc: Obj): void {
    const calls = (m.tool_calls ??= []);
    const i = typeof tc.index === 'number' ? tc.index : calls.length;
    const call = (calls[i] ??= { id: undefined, type: 'function', function: { name: '', arguments: '' } });
    if (typeof tc.id === 'string') call.id = tc.id;
    if (typeof tc.type === 'string') call.type = tc.type;
    const fn = call.function as Obj;
    const d = isPlainObject(tc.function) ? tc.function : {};
    if (typeof d.name === 'string') fn.name = (fn.name as string) + d.name;
    if (typeof d.arguments === 'string') fn.arguments = (fn.arguments as string) + d.arguments;
  }

  response(): Obj | undefined {
    if (!this.head) return undefined;
    const choices = [...this.choices.values()].sort((a, b) => a.index - b.index).map((c) => {
      if (c.message.tool_calls) c.message.tool_calls = c.message.tool_calls.filter((x) => x !== undefined && x !== null);
      return c;
    });
    return { ...this.head, choices, ...(this.usage !== undefined ? { usage: this.usage } : {}) };
  }
}

/** Anthropic Messages events: `message_start`'s message, its content blocks built from their deltas (a tool's
 *  `input` parsed from the joined `partial_json`, kept as the text it was when that text is not JSON). */
class MessagesAssembler implements Assembler {
  private message: Obj | undefined;
  private readonly blocks: Obj[] = [];
  private readonly partial = new Map<number, string>();

  event(p: unknown): void {
    if (!isPlainObject(p)) return;
    const index = typeof p.index === 'number' ? p.index : -1;
    switch (p.type) {
      case 'message_start':
        if (isPlainObject(p.message)) this.message = { ...p.message };
        break;
      case 'content_block_start':
        if (index >= 0 && isPlainObject(p.content_block)) this.blocks[index] = { ...p.content_block };
        break;
      case 'content_block_delta':
        if (index >= 0 && isPlainObject(p.delta)) this.delta(index, p.delta);
        break;
      case 'content_block_stop':
        this.settle(index);
        break;
      case 'message_delta':
        if (!this.message) this.message = { type: 'message', role: 'assistant', content: [] };
        if (isPlainObject(p.delta)) Object.assign(this.message, p.delta);
        if (isPlainObject(p.usage)) this.message.usage = { ...(isPlainObject(this.message.usage) ? this.message.usage : {}), ...p.usage };
        break;
    }
  }

  private delta(index: number, d: Obj): void {
    const block = (this.blocks[index] ??= { type: 'text', text: '' });
    const add = (key: string, piece: unknown) => {
      if (typeof piece === 'string') block[key] = (typeof block[key] === 'string' ? block[key] : '') + piece;
    };
    if (d.type === 'input_json_delta') this.partial.set(index, (this.partial.get(index) ?? '') + (typeof d.partial_json === 'string' ? d.partial_json : ''));
    else if (d.type === 'text_delta') add('text', d.text);
    else if (d.type === 'thinking_delta') add('thinking', d.thinking);
    else if (d.type === 'signature_delta') add('signature', d.signature);
    else if (d.type === 'citations_delta' && d.citation !== undefined) block.citations = [...(Array.isArray(block.citations) ? block.citations : []), d.citation];
  }

  private settle(index: number): void {
    const text = this.partial.get(index);
    const block = this.blocks[index];
    if (text === undefined || !block) return;
    this.partial.delete(index);
    if (text.trim() === '') return; // the block's own (empty) input stands
    try {
      block.input = JSON.parse(text);
    } catch {
      block.input = text; // what the model sent, for arguments-encoding to judge
    }
  }

  response(): Obj | undefined {
    if (!this.message) return undefined;
    for (const i of [...this.partial.keys()]) this.settle(i);
    return { ...this.message, content: this.blocks.filter((b) => b !== undefined) };
  }
}

/** Responses events: the final `response` of `response.completed` (or `.incomplete` / `.failed`) when it came;
 *  until then the created response with the items that are done. */
class ResponsesAssembler implements Assembler {
  private final: Obj | undefined;
  private created: Obj | undefined;
  private readonly items: Obj[] = [];

  event(p: unknown): void {
    if (!isPlainObject(p) || typeof p.type !== 'string') return;
    if ((p.type === 'response.completed' || p.type === 'response.incomplete' || p.type === 'response.failed') && isPlainObject(p.response)) this.final = p.response;
    else if ((p.type === 'response.created' || p.type === 'response.in_progress') && isPlainObject(p.response)) this.created = p.response;
    else if (p.type === 'response.output_item.done' && isPlainObject(p.item)) this.items[typeof p.output_index === 'number' ? p.output_index : this.items.length] = p.item;
  }

  response(): Obj | undefined {
    if (this.final) return this.final;
    if (!this.created && !this.items.length) return undefined;
    return { object: 'response', ...(this.created ?? {}), output: this.items.filter((i) => i !== undefined) };
  }
}
