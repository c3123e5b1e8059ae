// `contract-guard table FILE`: the decision table for CI logs and review — buildDecisionTable, the code the
// webview renders, so the rows and gates are the ones the editor shows.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { buildDecisionTable, emptyContracts, renderTableMarkdown, renderTableText, replayFixturesByCall, tableJson, type TableOptions } from '../core';
import { keepFinding, loadRunSettings, RUN_FLAGS, writeOut } from './compare';
import { displayPath, UsageError } from './files';
import { findFixtureFiles } from './fixture-files';
import { markdownLinks } from './links';
import { oneOf } from './settings';
import { checkFile } from './stream';

export const TABLE_USAGE = `usage: contract-guard table FILE [--format text|json|markdown] [--contracts PATH]... [--fixtures DIR]
                            [--profile strict|json-schema] [--config FILE]

Prints the decision table of one trace: for each turn, one row per call and one cell per gate (Envelope, Legal
keys, Args changed, Bytes moved, Replays: pass, FAIL with the code, n/a, or - when there is nothing to judge),
then the key shapes per tool. The same rows and gates as the editor's Show Decision Table. --fixtures DIR replays
the frozen fixtures there for the Replays gate. Exit 0 (the table is a view; gate CI with check), 2 on usage or
I/O errors.`;

export async function tableCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: RUN_FLAGS });
  if (values.help) {
    await writeOut(TABLE_USAGE + '\n');
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('table needs one trace FILE; try: contract-guard table --help');
  const format = oneOf('format', values.format, ['text', 'json', 'markdown'] as const, 'text');
  const settings = await loadRunSettings(values);
  const file = path.resolve(positionals[0]);
  const stat = await fs.stat(file).catch(() => undefined);
  if (!stat?.isFile()) throw new UsageError(`${positionals[0]}: no such file`);
  const { result, index } = await checkFile(file, { ...settings.options, keepModel: true });
  result.findings = result.findings.filter(keepFinding(settings, file));
  const options: TableOptions = { contracts: settings.options.contracts, profile: settings.options.profile, volatileTools: settings.options.volatileTools };
  if (values.fixtures !== undefined) {
    const names = await findFixtureFiles([values.fixtures]);
    const texts = await Promise.all(names.map(async (n) => ({ name: displayPath(path.resolve(n)), text: await fs.readFile(n, 'utf8') })));
    options.fixtures = replayFixturesByCall(texts, options.contracts ?? emptyContracts(), options.profile);
    options.fixtureCount = texts.length;
  }
  const table = buildDecisionTable(result, options);
  const shown = displayPath(file);
  const at = (offset: number) => index.position(offset);
  await writeOut(format === 'json' ? JSON.stringify(tableJson(shown, table, at), null, 2) + '\n' : format === 'markdown' ? renderTableMarkdown(shown, table, at, markdownLinks()) : renderTableText(shown, table, at));
  return 0;
}
