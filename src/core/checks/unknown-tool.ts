// unknown-tool and no-contract: what happens to a call whose tool no contract describes.
import type { Check } from './check';

export const unknownTool: Check = {
  code: 'unknown-tool',
  severity: 'error',
  title: 'The called tool is not in any contract',
  description: 'Contracts apply to the session (workspace contract files, or tool definitions recorded in the trace) and none of them declares this tool. There is no fuzzy matching: `get_open_now` is not `get_hours`.',
  example: { input: '{"name": "get_open_now", "arguments": {"building": "Killam"}}', message: 'get_open_now is not declared by any contract' },
  run(ctx) {
    if (!ctx.closed) return;
    for (const call of ctx.session.calls) {
      if (!ctx.contractFor(call.name)) ctx.report({ code: 'unknown-tool', message: `${call.name} is not declared by any contract`, at: call.nameAt, call });
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
    const seen = new Set<string>();
    for (const call of ctx.session.calls) {
      if (seen.has(call.name) || ctx.contractFor(call.name)) continue;
      seen.add(call.name);
      ctx.report({ code: 'no-contract', message: `no contract for ${call.name}; its arguments were not checked`, at: call.nameAt, call });
    }
  },
};
