// npm run docs: rewrites the README's diagnostic-codes section from the code list (`contract-guard codes`).
// test/unit/docs.test.ts fails when the two differ.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const root = path.resolve(__dirname, '..', '..');
const md = execFileSync(process.execPath, [path.join(root, 'dist', 'cli.js'), 'codes'], { encoding: 'utf8' });
const file = path.join(root, 'README.md');
const before = fs.readFileSync(file, 'utf8');
const after = before.replace(/<!-- codes:start -->\n[\s\S]*<!-- codes:end -->/, () => `<!-- codes:start -->\n${md}<!-- codes:end -->`);
fs.writeFileSync(file, after);
console.log(after === before ? 'README codes section already up to date' : 'README codes section rewritten');
