// A tool result whose content is a list of typed blocks: a lone block is what the tool returned, its value under the
// key that names its kind (Bedrock Converse `{json}` / `{text}`, Kiro's `{Json}` / `{Text}` and journal `{kind,
// data}`, Continue's lone ContextItem `{content}`, Copilot Chat's lone text part `{value}`); several blocks, or one of another kind, stay the list as it is.
import type { JsonPath } from '../parse/doc';
import { isPlainObject } from './util';

/** What a result's `content` returned, and its path below the content. */
export function lonePayload(content: unknown, keys: readonly string[]): { value: unknown; path: JsonPath } {
  if (Array.isArray(content) && content.length === 1 && isPlainObject(content[0])) {
    const only = content[0];
    for (const k of keys) if (k in only) return { value: only[k], path: [0, k] };
  }
  return { value: content, path: [] };
}
