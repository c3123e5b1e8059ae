// The README documents every code (its section is generated from the code list), every setting and every command.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { CODES } from '../../src/core';
import { codesMarkdown } from '../../src/core/report/codes-doc';
import { ROOT } from './helpers';

const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

describe('README', () => {
  it('its codes section is exactly `contract-guard codes` (regenerate: see the test)', () => {
    const section = /<!-- codes:start -->\n([\s\S]*)<!-- codes:end -->/.exec(readme)?.[1];
    assert.equal(section, codesMarkdown());
  });
  it('every code has a description and an anchor', () => {
    for (const c of Object.values(CODES)) {
      assert.ok(c.description.length > 40, c.code);
      assert.ok(readme.includes(`### ${c.code}\n`), c.code);
    }
  });
  it('documents every setting and every command', () => {
    for (const key of Object.keys(manifest.contributes?.configuration?.properties ?? {})) assert.ok(readme.includes(`\`${key}\``), key);
    for (const cmd of manifest.contributes?.commands ?? []) assert.ok(readme.includes(cmd.title), cmd.title);
  });
});
