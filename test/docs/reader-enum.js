// Rewrites the `enum` of the contractGuard.readAs setting in package.json from the core's reader list (readerIds),
// touching nothing else in the file. Needs a build (`npm run build`). test/unit/editor-reading.test.ts fails when
// the two differ.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const { readerIds } = require(path.join(root, 'out', 'src', 'core'));
const file = path.join(root, 'package.json');
const before = fs.readFileSync(file, 'utf8');
const setting = /("contractGuard\.readAs": \{[^}]*?"enum": )\[[^\]]*\]/;
if (!setting.test(before)) throw new Error('package.json: no "enum" in contractGuard.readAs');
const after = before.replace(setting, (_, head) => head + JSON.stringify(['', ...readerIds()]));
fs.writeFileSync(file, after);
console.log(after === before ? 'contractGuard.readAs enum already up to date' : 'contractGuard.readAs enum rewritten');
