// result-contract: what a tool returned breaks the result schema its contract declares (Contract Guard's own
// `result`, an MCP tool's `outputSchema`, a result schema recorded in the trace). The body is read the way the
// other result checks read it (src/core/results.ts: an MCP CallToolResult's structuredContent, JSON inside
// strings and text blocks, transport wrappers removed); results pair with calls as everywhere
// (checks/pairing.ts). An honest failure (is_error, a JSON-RPC error, a failed exit) carries no result to check.
import { readResult, resultBodyAnchor } from '../results';
import type { Check } from './check';
import { validateArguments } from './validation';

export const resultContract: Check = {
  code: 'result-contract',
  severity: 'warning',
  gate: 'keys',
  title: 'A result breaks the result schema its contract declares',
  description: 'The tool\'s contract declares what it returns (a Contract Guard `result` schema, or an MCP `outputSchema`, against which `structuredContent` is checked whatever JSON value it is: an object, an array, a string, a number) and the recorded result does not match: a missing or extra key, a mistyped value, a value outside its enum or range. Results that honestly failed (`is_error`, a JSON-RPC error, a failed exit code) are not checked, nor is an MCP result that asks for input first (`resultType: "input_required"`). The finding points at the offending part of the result.',
  example: { input: '{"role": "tool", "tool_call_id": "call_1", "content": "{\\"temp\\": \\"cold\\"}"}', message: 'get_weather result: temp wanted number, got string "cold"' },
  run(ctx) {
    const { results } = ctx.session;
    if (!results.length) return;
    let any = false;
    for (const call of ctx.session.calls) if (ctx.contractFor(call.name)?.contract.result !== undefined) any = true;
    if (!any) return;
    const pairing = ctx.pairing;
    results.forEach((result, i) => {
      const call = pairing.callOf(i);
      const schema = call && ctx.contractFor(call.name)?.contract.result;
      if (!call || schema === undefined || pairing.failed(i) || pairing.inputRequired(i)) return;
      const reading = readResult(result);
      if (reading.body === undefined) return;
      const faults = validateArguments(schema, reading.body, ctx.profile, reading.at?.doc, reading.at?.path ?? []);
      for (const fault of faults) {
        const detail = fault.message.replace('(arguments)', '(result)');
        const message =
          fault.code === 'missing-key' ? `${call.name} result is missing ${detail} (required)`
          : fault.code === 'extra-key' ? `${call.name} result: ${detail} by the result schema`
          : `${call.name} result: ${detail}`;
        const at = fault.code === 'missing-key' && fault.path.length === 0 ? resultBodyAnchor(result, []) : resultBodyAnchor(result, fault.path);
        ctx.report({ code: 'result-contract', message, at: fault.onKey ? { ...at, part: 'key' } : at, call });
      }
    });
  },
};
