// Bundles the in-host suites: the Node extension host suite (mocha required at run time) and the
// web-worker suite (mocha's browser build bundled in). Type checking: tsc -p test/vscode.
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..', '..');
const out = path.join(root, 'out', 'test', 'vscode');

async function main() {
  const builds = [
    { entryPoints: [path.join(__dirname, 'suite', 'index.ts')], outfile: path.join(out, 'suite', 'index.js'),
      platform: 'node', format: 'cjs', target: 'node20', external: ['vscode', 'mocha'] },
  ];
  builds.push({ entryPoints: [path.join(__dirname, 'bench', 'index.ts')], outfile: path.join(out, 'bench', 'index.js'),
    platform: 'node', format: 'cjs', target: 'node20', external: ['vscode', 'mocha'] });
  builds.push({ entryPoints: [path.join(__dirname, 'vsix', 'index.ts')], outfile: path.join(out, 'vsix', 'index.js'),
    platform: 'node', format: 'cjs', target: 'node20', external: ['vscode', 'mocha'] });
  if (fs.existsSync(path.join(__dirname, 'web', 'index.ts'))) {
    builds.push({ entryPoints: [path.join(__dirname, 'web', 'index.ts')], outfile: path.join(out, 'web', 'index.js'),
      platform: 'browser', format: 'cjs', target: 'es2022', external: ['vscode'],
      alias: { assert: path.join(__dirname, 'web', 'assert.ts') },
      define: { 'process.env.NODE_ENV': '"test"' } });
  }
  // the suites may import the core: jsonc-parser's UMD entry hides its requires from bundlers, its ESM build does not
  await Promise.all(builds.map((b) => esbuild.build({ bundle: true, sourcemap: 'inline', logLevel: 'warning', mainFields: ['module', 'main'], ...b })));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
