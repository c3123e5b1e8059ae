// The bytes entry point: a file as it is on disk. Containers (an Inspect AI `.eval` zip) become the JSON text
// their members make (see parse/container.ts); anything else is decoded as UTF-8 and checked like any text. The
// text the positions refer to is returned with the result.
import { checkText, type CheckOptions, type FileResult } from './engine';
import { containerText } from './parse/container';

export interface BytesResult extends FileResult {
  /** The text that was checked (and that finding spans refer to). */
  text: string;
  /** True when the text was made from a container's members rather than decoded from the bytes. */
  container: boolean;
}

export function checkBytes(bytes: Uint8Array, options: CheckOptions = {}): BytesResult {
  const inner = containerText(bytes);
  const text = inner ?? new TextDecoder('utf-8').decode(bytes);
  const result = checkText(text, inner === undefined ? options : { ...options, fileName: undefined });
  return { ...result, text, container: inner !== undefined };
}
