import type { ArgumentsEncoding } from '../model';
import type { Check } from './check';

const WHY: Partial<Record<ArgumentsEncoding, string>> = {
  'object-where-string-expected': 'are an object; this format sends arguments as a JSON string',
  'string-where-object-expected': 'are a JSON string; this format sends arguments as an object',
  'double-encoded': 'are double-encoded (a JSON string inside a JSON string)',
  fenced: 'are wrapped in a markdown code fence',
  'input-wrapper': 'are wrapped in {"input": ...}; the inner object was checked',
  'non-object': 'are not an object',
  invalid: 'are not valid JSON',
};

export const argumentsEncoding: Check = {
  code: 'arguments-encoding',
  severity: 'error',
  gate: 'keys',
  title: 'Arguments are not a plain JSON object',
  description: 'The arguments had to be decoded before they could be checked: invalid JSON, a markdown fence, a double-encoded string, an `{"input": ...}` wrapper, a non-object, or a string where the format sends an object (and the reverse). One finding per call; whatever could be recovered is then checked as usual.',
  example: { input: '{"name": "get_weather", "arguments": "```json\\n{\\"city\\": \\"Oslo\\"}\\n```"}', message: 'arguments of get_weather are wrapped in a markdown code fence' },
  run(ctx) {
    for (const call of ctx.session.calls) {
      // a plain object stays one through effectiveArgs (only an `{"input": ...}` wrapper may read as another)
      if (!WHY[call.encoding]) continue;
      const { encoding, args } = ctx.effectiveArgs(call);
      const why = WHY[encoding];
      if (!why) continue;
      let message = `arguments of ${call.name} ${why}`;
      if (encoding === 'non-object') message += `: got ${args === null ? 'null' : Array.isArray(args) ? 'an array' : typeof args}`;
      if (encoding === 'invalid' && call.encodingDetail) message += ` (${call.encodingDetail.replace(/^JSON\.parse: /, '')})`;
      ctx.report({ code: 'arguments-encoding', message, at: call.argsAt, call });
    }
  },
};
