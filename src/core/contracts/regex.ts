// ajv's regular-expression engine: re2js runs in linear time, so a hostile `pattern` in a contract cannot hang
// the checker. Patterns RE2 cannot express (lookahead, backreferences) fail to compile: a contract finding.
import { RE2JS } from 're2js';

interface RegExpLike {
  test(s: string): boolean;
}

export function re2(pattern: string, flags?: string): RegExpLike {
  let f = 0;
  if (flags?.includes('i')) f |= RE2JS.CASE_INSENSITIVE;
  if (flags?.includes('m')) f |= RE2JS.MULTILINE;
  if (flags?.includes('s')) f |= RE2JS.DOTALL;
  const compiled = RE2JS.compile(pattern, f);
  return { test: (s: string) => compiled.matcher(s).find() };
}
// ajv caches regular expressions by source and asks for `code` to embed; this tells it where the engine lives.
re2.code = 'require("contract-guard/regex").re2';
