// What a tool name may look like, shared by unknown-tool (a name that holds model control tokens) and
// call-in-text (is the name a written call gives a tool's?).

// Chat-template control tokens leaked into a name: `<|channel|>`, `<|constrain|>`, `<|im_end|>` (ChatML, Harmony,
// Llama) and the full-width `<｜tool▁call▁begin｜>` family (DeepSeek).
const CONTROL = /<\|[^<>|\n]{1,40}\|>|<｜[^<>｜\n]{1,40}｜>/g;

// Words a control-token template puts around the recipient (Harmony: `<|channel|>commentary`, `<|constrain|>json`).
const TEMPLATE_WORDS = new Set(['analysis', 'commentary', 'final', 'json', 'code', 'assistant', 'user', 'system', 'tool', 'functions']);

const IDENTIFIER = /^[A-Za-z_][\w.:-]{0,127}$/;

/** A name a tool could have: a letter or `_`, then letters, digits, `_`, `.`, `:` or `-` (no spaces). */
export function isIdentifierLike(name: string): boolean {
  return IDENTIFIER.test(name);
}

/** The control tokens a tool name holds, or undefined for a clean name (the common case costs one indexOf). */
export function controlTokens(name: string): string[] | undefined {
  if (name.indexOf('<') < 0) return undefined;
  const found = name.match(CONTROL);
  return found ? [...new Set(found)] : undefined;
}

/** `functions.get_weather` / `to=functions.get_weather` -> `get_weather` (how templates address a function). */
export function withoutRecipient(name: string): string {
  return name.replace(/^to=/, '').replace(/^functions\./, '');
}

/** The tool a name with control tokens was probably meant to be: a piece of it that `known` accepts; without
 *  `known` (no contracts to ask), the one piece that looks like a name and is not a template word. */
export function meantTool(name: string, known?: (tool: string) => boolean): string | undefined {
  const pieces = name.split(CONTROL).flatMap((p) => p.split(/\s+/)).filter((p) => p !== '');
  if (known) {
    for (const piece of pieces) {
      if (known(piece)) return piece;
      const bare = withoutRecipient(piece);
      if (bare !== piece && known(bare)) return bare;
    }
    return undefined;
  }
  const names = pieces.map(withoutRecipient).filter((p) => isIdentifierLike(p) && !TEMPLATE_WORDS.has(p.toLowerCase()));
  return names.length === 1 ? names[0] : undefined;
}
