// unknown-tool and no-contract: what happens to a call whose tool no contract describes. A name holding model
// control tokens (`get_weather<|channel|>commentary`) is no tool's name, contracts or not: it is unknown-tool,
// with the tool it probably meant.
import type { Check, SessionContext } from './check';
import { controlTokens, meantTool } from './tool-names';

/** The message for a name that holds control tokens, or undefined for a clean name. */
function malformed(ctx: SessionContext, name: string): string | undefined {
  const tokens = controlTokens(name);
  if (!tokens) return undefined;
  const meant = meantTool(name, ctx.closed ? (n) => ctx.contractFor(n) !== undefined : undefined);
  const hint = meant === undefined ? '' : `; it probably meant ${meant}`;
  return `${name} is a malformed tool name: it holds model control tokens (${tokens.join(', ')})${hint}`;
}

export const unknownTool: Check = {
  code: 'unknown-tool',
  severity: 'error',
  gate: 'keys',
  title: 'The called tool is not in any contract',
  description: 'Contracts apply to the session (workspace contract files, or tool definitions recorded in the trace) and none of them declares this tool. There is no fuzzy matching: `get_open_now` is not `get_hours`. A name that holds model control tokens (`functions.get_weather<|channel|>commentary`, `json<|constrain|>`, `<|im_end|>`: the chat template leaked into the name) is no tool\'s name, with or without contracts: the message says so, and names the tool it probably meant when a piece of the name is one.',
  example: { input: '{"name": "get_open_now", "arguments": {"building": "Killam"}}', message: 'get_open_now is not declared by any contract' },
  run(ctx) {
    for (const call of ctx.session.calls) {
      const bad = malformed(ctx, call.name);
      if (bad) ctx.report({ code: 'unknown-tool', message: bad, at: call.nameAt, call });
      else if (ctx.closed && !ctx.contractFor(call.name)) ctx.report({ code: 'unknown-tool', message: `${call.name} is not declared by any contract`, at: call.nameAt, call });
    }
  },
};

export const noContract: Check = {
  code: 'no-contract',
  severity: 'info',
  title: 'No contract is known for this tool',
  description: 'No contract applies to the session, or every applicable contract file is `partial`, and this tool is not listed: its arguments were not checked. Reported once per tool per session.',
  example: { input: '{"name": "web_search", "arguments": {"q": "x"}}', message: 'no contract for web_search; its arguments were not checked' },
  run(ctx) {
    if (ctx.closed) return;
    // once per tool per session: the tools already noted in earlier segments of a long one are remembered
    const seen = ctx.state('no-contract', () => new Set<string>());
    for (const call of ctx.session.calls) {
      // a malformed name already has its unknown-tool
      if (seen.has(call.name) || ctx.contractFor(call.name) || controlTokens(call.name)) continue;
      seen.add(call.name);
      ctx.report({ code: 'no-contract', message: `no contract for ${call.name}; its arguments were not checked`, at: call.nameAt, call });
    }
  },
};
