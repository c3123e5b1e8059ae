// Status-code theater: the transport says success while the body says failure, or the result envelope the
// seed's accept_tool_body demands ({ok, error, result}) is malformed. Honest failures are never theater.
import { bodyFailure, brief, isSetError, okExitCodesFor, transportKind, transportVerdict, type ResultReading } from '../results';
import type { Check } from './check';
import { isPlainObject } from '../objects';


const ENVELOPE = ['ok', 'error', 'result'] as const;

/** The envelope fault of a body, if it is (or must be) an {ok, error, result} envelope. */
export function envelopeFault(reading: ResultReading, declared: boolean): string | undefined {
  const b = reading.body;
  const looksLikeOne = isPlainObject(b) && 'ok' in b && ('error' in b || 'result' in b);
  if (!declared && !looksLikeOne) return undefined;
  if (!isPlainObject(b)) return `envelope expected {ok, error, result}, got ${b === undefined ? 'no body' : typeof b === 'string' ? 'text ' + brief(b) : brief(b)}`;
  if (!('ok' in b && 'error' in b && 'result' in b)) {
    const missing = ENVELOPE.filter((k) => !(k in b));
    return `envelope lacks ${missing.join(' and ')} (expected ok, error and result)`;
  }
  if (typeof b.ok !== 'boolean') return `envelope ok must be true or false, got ${brief(b.ok)}`;
  if (b.ok === true && isSetError(b.error)) return `envelope says ok: true but carries error ${brief(b.error)}`;
  if (b.ok === false && b.result !== null && b.result !== undefined) return `envelope says ok: false but still carries a result ${brief(b.result)}`;
  return undefined;
}

export const statusTheater: Check = {
  code: 'status-theater',
  severity: 'warning',
  gate: 'envelope',
  title: 'Transport says success while the body says failure, or a malformed result envelope',
  description: 'A result whose transport says success (HTTP 2xx, an exit code the tool counts as success, `is_error`/`isError` false or absent, an OTel span status OK or unset) while its body says failure (`ok: false`, `success: false`, a non-empty `error`, an MCP CallToolResult with `isError: true` inside a result whose transport said success explicitly, `status: "error"`/`"failed"`, or — a heuristic, said so in the message — text that starts like an error: `Error:`, `Traceback`, `fatal:`). Also the envelope rules of the seeds, where the contract declares `envelope: true` or the body carries `ok` with `error` or `result`: all three keys present, `ok: true` with a non-null `error` is a conflict, `ok: false` still carrying a `result` is a conflict. Honest failures (`is_error: true`, a span with status ERROR or an OTel `error.type`, a JSON-RPC error, HTTP 4xx/5xx, an exit code not in the tool\'s `okExitCodes`) are never theater, and neither is an MCP result that asks for input first (`resultType: "input_required"`). Results that are strings holding JSON are read as JSON; `{status, body}` wrappers are transport plus body.',
  example: { input: '{"status": 200, "body": {"ok": false, "error": "index locked", "result": null}}', message: 'run_tests: transport says success (HTTP 200) but the body says ok: false' },
  run(ctx) {
    const { results } = ctx.session;
    if (results.length === 0) return;
    const pairing = ctx.pairing;
    results.forEach((result, i) => {
      const call = pairing.callOf(i);
      const contract = call ? pairing.contract(call.name) : undefined;
      const reading = contract?.envelope ? pairing.fullReading(i) : pairing.reading(i);
      const okExit = reading.transport.exitCode === undefined ? undefined : okExitCodesFor(call?.name, contract?.okExitCodes);
      const kind = transportKind(reading, okExit);
      if (kind === 'failure') return; // an honest failure
      if (reading.transport.inputRequired) return; // a request for input (MCP input_required), not an outcome
      const envelope = envelopeFault(reading, contract?.envelope === true);
      if (envelope) {
        ctx.report({ code: 'status-theater', message: (call ? `${call.name}: ` : '') + envelope, at: result.at, call });
        return;
      }
      if (kind !== 'success') return;
      const failure = bodyFailure(reading);
      if (!failure) return;
      const who = call ? `${call.name}: ` : '';
      const verdict = transportVerdict(reading, okExit) as { said: string };
      const message = failure.heuristic
        ? `${who}transport says success (${verdict.said}) but the text starts like an error (heuristic): ${failure.said}`
        : `${who}transport says success (${verdict.said}) but the body says ${failure.said}`;
      ctx.report({ code: 'status-theater', message, at: result.at, call });
    });
  },
};
