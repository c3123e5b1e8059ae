// The one list of checks, run in this order on every session, and the documentation of every code.
import type { Check, CodeInfo } from './check';
import { argumentsEncoding } from './arguments-encoding';
import { assumedValue } from './assumed-value';
import { callInText } from './call-in-text';
import { constraint } from './constraint';
import { duplicateCallId } from './duplicate-call-id';
import { duplicateFingerprint } from './duplicate-fingerprint';
import { extraKey } from './extra-key';
import { missingKey } from './missing-key';
import { orphanCall } from './orphan-call';
import { orphanResult } from './orphan-result';
import { resultContract } from './result-contract';
import { schemaDrift } from './schema-drift';
import { staleDigest } from './stale-digest';
import { statusTheater } from './status-theater';
import { typeDrift } from './type-drift';
import { noContract, unknownTool } from './unknown-tool';

export const CHECKS: readonly Check[] = [
  unknownTool,
  noContract,
  argumentsEncoding,
  missingKey,
  extraKey,
  typeDrift,
  constraint,
  schemaDrift,
  duplicateFingerprint,
  staleDigest,
  statusTheater,
  orphanCall,
  orphanResult,
  duplicateCallId,
  assumedValue,
  resultContract,
  callInText,
];

/** Codes that no session check reports: they come from reading files. */
const READER_CODES: CodeInfo[] = [
  {
    code: 'parse-error',
    severity: 'error',
    title: 'The line or file is not valid JSON',
    description: 'The JSON parser stopped here. In JSONL only that line is lost: every other line is still read and checked. A single JSON document cut short (a session file still being written, a copy that stopped) is read up to its break: the whole records before it (the last complete element of the deepest array still open there, so never the message or call the break is in) are read and checked at their own places, and the break is this finding.',
    example: { input: '{"name": "get_hours", "arguments": {"weekday": 2}', message: "expected ',' or a closing bracket" },
  },
  {
    code: 'unknown-format',
    severity: 'warning',
    title: 'The file is not in a known trace format',
    description: 'No reader recognised the file, so nothing in it was checked. A file named on the command line (or matched by the config\'s `traces` globs) gets this warning, so CI cannot pass on a file nobody read; non-trace JSON met while walking a folder stays quiet and is counted as "not read" in the summary. In the editor, a file that looks like a trace but is not read says so in the status bar (a package.json is not a trace). Force a reader with `--read-as` (the shape reader `generic` reads any JSON with tool calls in it).',
    example: { input: '{"events": [{"kind": "step", "payload": "..."}]}', message: 'not a trace in any known format; nothing was checked (force a reader with --read-as, e.g. --read-as generic)' },
  },
  {
    code: 'read-by-shape',
    severity: 'info',
    title: 'No known format: the calls were read by their shape',
    description: 'No format adapter recognised the file, so the shape reader walked its JSON for objects with a tool name and arguments, results linked by an explicit id key, and definitions with a schema. Every call found is checked; pairing and orphan checks only use links the file states. Force a reader with `--read-as` (CLI) or "Contract Guard: Read Trace As…" (editor).',
  },
  {
    code: 'contract-invalid',
    severity: 'error',
    title: 'A contract file is broken',
    description: 'The contract file is not valid JSON, not in a known contract form, or holds a schema that does not compile (an unknown $ref, a pattern the linear-time regex engine cannot run, ...). The finding is on the contract file, at the JSON pointer of the problem; the tools it defines stay known but unchecked.',
  },
];

export const CODES: Readonly<Record<string, CodeInfo>> = Object.fromEntries(
  [...READER_CODES, ...CHECKS].map((c) => [c.code, { code: c.code, severity: c.severity, title: c.title, description: c.description, example: c.example }]),
);

export type { Check, CodeInfo, PendingFinding } from './check';
export { SessionContext } from './check';
