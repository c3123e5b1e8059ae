// Shared by the record tests: the scripted fake upstream (test/live/fake-upstream.js), invented keys, the tools
// each API declares, and what `check` makes of a recording.
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '../../..');
export const CLI = path.join(ROOT, 'dist', 'cli.js');

export interface FakeUpstream {
  port: number;
  url: string;
  sent: { path: string; model?: string; headers: Record<string, string | string[] | undefined>; body: Buffer }[];
  close(): Promise<void>;
}
interface FakeModule {
  startFakeUpstream(options?: { port?: number; gap?: number }): Promise<FakeUpstream>;
  ARGS: Record<string, string>;
  FENCED: string;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const fake = require(path.join(ROOT, 'test', 'live', 'fake-upstream.js')) as FakeModule;

export const OPENAI_KEY = 'sk-test-INVENTEDkey0123456789abcdefXYZ';
export const ANTHROPIC_KEY = 'sk-ant-test-INVENTEDkey0123456789abcdef';

export const CHAT_TOOLS = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, units: { type: 'string' } }, required: ['city'] } } }];
export const RESPONSES_TOOLS = [{ type: 'function' as const, name: 'get_weather', strict: false, parameters: { type: 'object', properties: { city: { type: 'string' }, units: { type: 'string' } }, required: ['city'] } }];
export const ANTHROPIC_TOOLS = [{ name: 'get_weather', input_schema: { type: 'object' as const, properties: { city: { type: 'string' }, units: { type: 'string' } }, required: ['city'] } }];

/** `check FILE --format json`'s diagnostics, as `line:col code`. */
export function checked(file: string): { places: string[]; calls: number; parseErrors: number } {
  let out: string;
  try {
    out = execFileSync('node', [CLI, 'check', file, '--format', 'json', '--fail-on', 'never'], { encoding: 'utf8' });
  } catch (e) {
    out = (e as { stdout: string }).stdout;
  }
  const report = JSON.parse(out) as { files: { calls: number; diagnostics: { line: number; column: number; code: string }[] }[] };
  const f = report.files[0];
  return { places: f.diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`), calls: f.calls, parseErrors: f.diagnostics.filter((d) => d.code === 'parse-error').length };
}

