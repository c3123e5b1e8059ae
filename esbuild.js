// One build script for every bundle: the CLI and extension (Node), the web extension (browser worker)
// and the webview page. Type checking is a separate `tsc` step.
const esbuild = require('esbuild');
const fs = require('fs');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

// esbuild escapes strings but leaves comments and regular expression literals as written: one character above
// U+00FF left in a bundle makes V8 hold its whole source two bytes a character (the CLI and each check thread:
// 4.4 and 3.5 MB of heap instead of half; ~10 MB of the CLI's peak RSS on the bench). Each non-ASCII character
// left is written as \uXXXX: the same character in a comment, a regular expression or a string (source map
// columns shift after it on the few lines that have one).
const asciiOnly = {
  name: 'ascii-only',
  setup(build) {
    build.onEnd(() => {
      const file = build.initialOptions.outfile;
      if (!file || !fs.existsSync(file)) return;
      const text = fs.readFileSync(file, 'utf8');
      if (!/[\u0080-\uffff]/.test(text)) return;
      // an escaped character (`\…` in a regular expression) is the character: its backslash goes
      const escaped = text.replace(/(\\*)([\u0080-\uffff])/g, (_, slashes, c) => slashes.slice(slashes.length % 2) + '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
      fs.writeFileSync(file, escaped);
    });
  },
};

const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  logLevel: 'warning',
  legalComments: 'none',
  // jsonc-parser's UMD entry hides its requires from bundlers; its ESM build bundles cleanly.
  mainFields: ['module', 'main'],
  plugins: [asciiOnly],
};

const builds = [
  { entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', target: 'node20',
    banner: { js: '#!/usr/bin/env node' } },
  // The threads `check --jobs` checks on (src/cli/pool.ts), next to the CLI bundle.
  { entryPoints: ['src/cli/worker.ts'], outfile: 'dist/cliWorker.js', platform: 'node', format: 'cjs', target: 'node20' },
];

if (fs.existsSync('src/extension/extension.ts')) {
  builds.push({ entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', platform: 'node',
    format: 'cjs', target: 'node20', external: ['vscode'] });
  // The thread large traces are checked on, off the extension host's (src/extension/background.ts).
  builds.push({ entryPoints: ['src/extension/checkWorker.ts'], outfile: 'dist/checkWorker.js', platform: 'node',
    format: 'cjs', target: 'node20' });
  // The thread each side of a compare is checked on (src/extension/compare/runs.ts).
  builds.push({ entryPoints: ['src/extension/compare/runWorker.ts'], outfile: 'dist/compareWorker.js', platform: 'node',
    format: 'cjs', target: 'node20' });
  // The same entry for VS Code for the Web: a web-worker extension host, no Node built-ins (and no worker threads).
  builds.push({ entryPoints: ['src/extension/extension.ts'], outfile: 'dist/web/extension.js', platform: 'browser',
    format: 'cjs', target: 'es2022', external: ['vscode', 'node:worker_threads', 'node:os'], mainFields: ['browser', 'module', 'main'],
    define: { 'process.env.CONTRACT_GUARD_TARGET': '"web"' } });
}
if (fs.existsSync('src/webview/table.ts')) {
  // The decision table page (loaded by the webview through asWebviewUri; media/table.css styles it).
  builds.push({ entryPoints: ['src/webview/table.ts'], outfile: 'dist/webview/table.js', platform: 'browser',
    format: 'iife', target: 'es2022' });
}
if (fs.existsSync('src/webview/compare.ts')) {
  // The compare page (media/compare.css styles it).
  builds.push({ entryPoints: ['src/webview/compare.ts'], outfile: 'dist/webview/compare.js', platform: 'browser',
    format: 'iife', target: 'es2022' });
}

async function main() {
  const contexts = await Promise.all(builds.map((b) => esbuild.context({ ...common, ...b })));
  if (watch) {
    await Promise.all(contexts.map((c) => c.watch()));
    return;
  }
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
  fs.chmodSync('dist/cli.js', 0o755);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
