// One recorded exchange as one JSONL line the engine reads as one session: the request the client sent with the
// answer put where that provider's own "log of both" shape keeps it, so the request's `tools` are the contract of
// the calls in the answer and `check FILE` finds what the proxy printed:
// - Chat Completions: the request's keys, then the `chat.completion`'s (`choices` after `messages`; the answer's
//   `model` wins) — the openai-chat reader takes `{messages, tools, choices}`;
// - Responses: the request's keys, then the `response` object's (`input` from the request, `output` from the answer,
//   `tools` the request's);
// - Anthropic Messages: the request, with the answer (a `message`, kept whole) as the last of its `messages`.
// `recorded` (last) says how the exchange went (path with secrets redacted, status, stream or not, how long; why it is
// incomplete; an error answer or a body that is not JSON), never a credential.
import { isPlainObject } from '../../core';
import type { ApiKind } from './assemble';

/** Which API a request path calls, or undefined for paths that are passed through unrecorded (`/v1/models`). */
export function apiKind(method: string | undefined, pathAndQuery: string): ApiKind | undefined {
  if (method !== 'POST') return undefined;
  const p = pathAndQuery.split('?')[0].replace(/\/+$/, '');
  if (p.endsWith('/chat/completions')) return 'chat';
  if (p.endsWith('/responses')) return 'responses';
  if (p.endsWith('/messages')) return 'messages';
  return undefined;
}

export interface Recorded {
  at: string;
  path: string;
  status: number;
  stream: boolean;
  ms: number;
  headers?: Record<string, string>;
  /** Why the answer is not whole: the upstream closed mid-stream, the client went away, the upstream was not reached. */
  incomplete?: string;
  error?: string;
  /** An error answer (status ≥ 400), or an answer that is not the API's (kept as it came). */
  response?: unknown;
  /** A request body that is not JSON, as text. */
  request?: string;
}

/** The line (no newline inside) for a request body and the (parsed or assembled) answer. */
export function exchangeLine(kind: ApiKind, requestText: string, answer: unknown, recorded: Recorded): string {
  let request: unknown;
  try {
    request = JSON.parse(requestText);
  } catch {
    request = undefined;
  }
  if (!isPlainObject(request)) {
    if (requestText !== '') recorded.request = requestText;
    return JSON.stringify({ recorded: withAnswer(recorded, answer) });
  }
  const ok = recorded.status < 400 && isPlainObject(answer);
  // `recorded` comes last, so a line starts with the conversation (what an editor shows of it)
  if (!ok) return JSON.stringify({ ...request, recorded: withAnswer(recorded, answer) });
  if (kind === 'messages') {
    const messages = Array.isArray(request.messages) ? request.messages : [];
    if (answer.type === 'message') return JSON.stringify({ ...request, messages: [...messages, answer], recorded });
    return JSON.stringify({ ...request, recorded: withAnswer(recorded, answer) });
  }
  // the tools the client declared are the contract (a Responses answer echoes them; an empty echo says nothing)
  const tools = request.tools !== undefined ? { tools: request.tools } : {};
  return JSON.stringify({ ...request, ...answer, ...tools, recorded });
}

function withAnswer(recorded: Recorded, answer: unknown): Recorded {
  return answer === undefined ? recorded : { ...recorded, response: answer };
}

/** A body as the recording keeps it: its JSON value, else its text (empty: nothing). */
export function bodyValue(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
