// Redaction: messages quote argument values (`got string "…"`), and CI logs and SARIF uploads must not carry a
// whole secret or document out of a trace. Every quoted JSON string in a message is cut to `max` characters.
// One home for it: the engine applies it to every message it emits, so the editor, the CLI and every report
// format quote the same truncated text.

/** The default number of characters of a quoted value a message keeps. */
export const DEFAULT_MAX_VALUE_LENGTH = 80;

// A JSON string as messages quote it; an earlier describer may already have cut it (no closing quote, `...`).
const QUOTED = /"((?:[^"\\\n]|\\.)*)("?)/g;

/** Cut every quoted JSON string in `message` longer than `max` characters (of its source text) to `max`,
 *  marked with `…` and the original length (when the message still had it whole). `max` of 0 or less, or
 *  Infinity, keeps messages whole. */
export function redactMessage(message: string, max: number = DEFAULT_MAX_VALUE_LENGTH): string {
  if (!(max > 0) || max === Infinity || message.length <= max + 2 || message.indexOf('"') === -1) return message;
  return message.replace(QUOTED, (q, inner: string, close: string) => {
    const whole = close === '"';
    const body = whole ? inner : inner.replace(/(?:\.\.\.|…)$/, '');
    if (body.length <= max) return q;
    let cut = body.slice(0, max);
    // Never end inside an escape sequence (`\` or `\uXXXX`).
    const esc = cut.lastIndexOf('\\');
    if (esc !== -1 && esc >= cut.length - 6) {
      let run = 0;
      for (let i = esc; i >= 0 && cut[i] === '\\'; i--) run++;
      if (run % 2 === 1) cut = cut.slice(0, esc);
    }
    // Nor between the halves of a surrogate pair.
    const last = cut.charCodeAt(cut.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
    return whole ? `"${cut}…" (${body.length} chars)` : `"${cut}…`;
  });
}
