// contract-guard infer <traces...> [--output FILE]: a starter contract in Contract Guard's format from the calls
// in the traces. Printed, or written to FILE, which must not exist yet (a contract is never overwritten).
import { promises as fs } from 'node:fs';
import { parseArgs } from 'node:util';
import { inferContract, renderContract, type ToolCall } from '../core';
import { displayPath, findTraceFiles, UsageError } from './files';
import { checkFile } from './stream';
import { writeNewFile } from './fixture-files';

const USAGE = `usage: contract-guard infer <traces...> [--output FILE]

Writes a starter contract (Contract Guard's format) from the calls in the traces (files or folders): per tool
the JSON type of each argument, required for the keys present in every call, additionalProperties false, and
enums where a string argument took few values. Review it before use. An existing FILE is never overwritten.`;

export async function inferCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { output: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  if (!positionals.length) throw new UsageError('infer needs trace files or folders; try: contract-guard infer --help');
  if (values.output !== undefined) {
    const exists = await fs.stat(values.output).then(() => true, () => false);
    if (exists) throw new UsageError(`${values.output} already exists; infer never overwrites a contract (choose another --output)`);
  }
  const files = await findTraceFiles(positionals, new Set());
  const calls: ToolCall[] = [];
  for (const file of files) {
    const { result } = await checkFile(file, { keepModel: true, packs: false, severity: { 'no-contract': 'off' } });
    for (const m of result.model ?? []) calls.push(...m.session.calls);
  }
  if (!calls.length) throw new UsageError('no tool calls found in the given traces; nothing to infer');
  const origin = files.length === 1 ? displayPath(files[0]) : `${files.length} traces`;
  const inferred = inferContract(calls, origin);
  const text = renderContract(inferred.value);
  if (values.output === undefined) process.stdout.write(text);
  else {
    // atomic and never overwriting: a temp file linked into place (an interrupted run leaves no half contract)
    if ((await writeNewFile(values.output, text)) === 'exists') throw new UsageError(`${values.output} already exists; infer never overwrites a contract (choose another --output)`);
    process.stderr.write(`contract-guard: wrote ${Object.keys(inferred.value.tools).length} tools from ${calls.length - inferred.skipped} calls to ${values.output}${inferred.skipped ? ` (${inferred.skipped} calls with unreadable arguments left out)` : ''}\n`);
  }
  return 0;
}
