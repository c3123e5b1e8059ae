#!/usr/bin/env node
// Runs Contract Guard inside a real VS Code: the VS Code server that code-server bundles, driven by Debian's
// headless Chromium through playwright-core. Everything listens on 127.0.0.1 and stops when the run ends.
//
//   node test/harness/run.js --tests out/test/vscode/suite/index.js [--workspace-files fixtures,package.json]
//   node test/harness/run.js --web --tests out/test/vscode/web/index.js     (web-worker extension host)
//   node test/harness/run.js --ui test/e2e/ui.js                             (Playwright script against the workbench)
//   node test/harness/run.js --vsix contract-guard-0.1.0.vsix --tests ...    (installed package, no dev extension)
//
// Options:
//   --tests FILE            in-host suite (a module exporting `run(): Promise<void>`), relative to the repo root
//   --ui FILE               Node module exporting `async ({ page, screenshot, log, workspace, extension }) => void`
//   --web                   run the extension in the browser's web-worker extension host (a copy of the extension
//                           whose package.json keeps only `browser`)
//   --vsix FILE             install this .vsix into the server and run without the development extension
//   --workspace DIR         folder to open (default: a temp folder; see --workspace-files)
//   --workspace-files LIST  comma-separated repo paths copied into a fresh temp workspace (default: fixtures,package.json)
//   --setting KEY=JSON      a user setting (repeatable)
//   --timeout SECONDS       whole-run timeout (default 180)
//   --grep PATTERN          run only the in-host tests whose title matches (CONTRACT_GUARD_GREP for the suite)
//   --keep                  keep the temp folders (printed at the end)
//   --verbose               relay all of the workbench's log, not only the suite's
// Exit code: the suite's (0 pass, 1 fail); 2 for a harness failure (timeout, crash, no extension host, ...).
'use strict';

const { spawn, spawnSync } = require('child_process');
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');
const util = require('util');

const repo = path.resolve(__dirname, '..', '..');
const vscodeRoot = path.join(__dirname, 'node_modules', 'code-server', 'lib', 'vscode');
const serverMain = path.join(vscodeRoot, 'out', 'server-main.js');
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const outputDir = path.join(repo, '.test-output');

function parseArgs(argv) {
  const o = { settings: {}, timeout: 180, workspaceFiles: ['fixtures', 'package.json'] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    switch (a) {
      case '--tests': o.tests = next(); break;
      case '--ui': o.ui = next(); break;
      case '--web': o.web = true; break;
      case '--vsix': o.vsix = next(); break;
      case '--workspace': o.workspace = next(); break;
      case '--workspace-files': o.workspaceFiles = next().split(',').filter(Boolean); break;
      case '--setting': {
        const s = next();
        const eq = s.indexOf('=');
        if (eq < 1) usage(`--setting wants KEY=JSON, got ${s}`);
        o.settings[s.slice(0, eq)] = JSON.parse(s.slice(eq + 1));
        break;
      }
      case '--timeout': o.timeout = Number(next()); break;
      case '--grep': o.grep = next(); break;
      case '--keep': o.keep = true; break;
      case '--verbose': o.verbose = true; break;
      case '-h': case '--help': usage(); break;
      default: usage(`unknown argument ${a}`);
    }
  }
  if (!o.tests === !o.ui) usage('give exactly one of --tests or --ui');
  if (o.web && o.vsix) usage('--web and --vsix do not combine');
  return o;
}

function usage(msg) {
  const head = fs.readFileSync(__filename, 'utf8').split('\n').filter((l) => l.startsWith('//')).join('\n');
  if (msg) console.error(`run.js: ${msg}\n`);
  console.error(head.replace(/^\/\/ ?/gm, ''));
  process.exit(2);
}

// Workbench chatter that says nothing about the suite (see REAL-VSCODE-TESTS.md: harmless here).
const noise = [/^Resolv(ing|ed) connection token/, /^Creating a socket/, /^Updating additional builtin extensions/,
  /serviceWorker|ServiceWorker/, /open-vsx\.org/, /^ChatSessionStore/, /vsda/];
const isNoise = (text) => noise.some((re) => re.test(text));

const log = (...a) => console.log('[harness]', ...a);

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function copyInto(src, dest, skip = () => false) {
  fs.cpSync(src, dest, { recursive: true, filter: (p) => !skip(p) });
}

/** The copy of the extension the web-worker host runs: package.json without `main`, only the web bundle. */
function makeWebExtension(tmp) {
  const dir = path.join(tmp, 'web-extension');
  fs.mkdirSync(dir, { recursive: true });
  const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));
  if (!pkg.browser) throw new Error('package.json has no `browser` entry');
  delete pkg.main;
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  for (const p of ['dist/web', 'dist/webview', 'media', 'syntaxes', 'schemas', 'README.md', 'LICENSE']) {
    if (fs.existsSync(path.join(repo, p))) copyInto(path.join(repo, p), path.join(dir, p));
  }
  return dir;
}

/** A do-nothing development extension: VS Code only runs a test suite on behalf of one. */
function makeRunnerExtension(tmp) {
  const dir = path.join(tmp, 'runner-extension');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({
    name: 'contract-guard-test-runner', publisher: 'contract-guard', version: '0.0.0',
    engines: { vscode: '*' }, main: './noop.js', activationEvents: [],
  }));
  fs.writeFileSync(path.join(dir, 'noop.js'), 'exports.activate = () => {};\n');
  return dir;
}

function killGroup(child, signal) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* already gone */
  }
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(serverMain)) {
    console.error('run.js: the VS Code server is not installed; run .ci/install-harness.sh (as root)');
    process.exit(2);
  }
  let chromium;
  try {
    ({ chromium } = require('playwright-core'));
  } catch {
    console.error('run.js: playwright-core is not installed; run .ci/install-harness.sh');
    process.exit(2);
  }

  const started = Date.now();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'contract-guard-vscode-'));
  const serverData = path.join(tmp, 'server-data');
  const userDir = path.join(serverData, 'data', 'User');
  fs.mkdirSync(userDir, { recursive: true });
  const settings = {
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'security.workspace.trust.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'git.enabled': false,
    'git.openRepositoryInParentFolders': 'never',
    'chat.disableAIFeatures': true,
    'json.schemaDownload.enable': false,
    ...o.settings,
  };
  fs.writeFileSync(path.join(userDir, 'settings.json'), JSON.stringify(settings, null, 2));

  let workspace = o.workspace && path.resolve(o.workspace);
  if (!workspace) {
    workspace = path.join(tmp, 'workspace');
    fs.mkdirSync(workspace);
    for (const p of o.workspaceFiles) copyInto(path.join(repo, p), path.join(workspace, p));
  }

  let extension = repo;
  if (o.web) extension = makeWebExtension(tmp);
  if (o.vsix) extension = makeRunnerExtension(tmp);

  const logsDir = path.join(tmp, 'logs');
  const serverLog = fs.createWriteStream(path.join(tmp, 'server.log'));
  const serverArgs = [serverMain, '--host', '127.0.0.1', '--without-connection-token',
    '--accept-server-license-terms', '--telemetry-level', 'off', '--disable-workspace-trust',
    '--server-data-dir', serverData, '--extensions-dir', path.join(serverData, 'extensions'), '--logsPath', logsDir];

  if (o.vsix) {
    const vsix = path.resolve(o.vsix);
    log(`installing ${path.basename(vsix)} (${fs.statSync(vsix).size} bytes)`);
    const r = spawnSync(process.execPath, [...serverArgs, '--install-extension', vsix], { encoding: 'utf8', timeout: 120000 });
    process.stdout.write(r.stdout || '');
    if (r.status !== 0 || !/successfully installed/i.test(r.stdout || '')) {
      process.stderr.write(r.stderr || '');
      console.error('run.js: could not install the .vsix');
      process.exit(2);
    }
  }

  const port = await freePort();
  const server = spawn(process.execPath, [...serverArgs, '--port', String(port)], {
    cwd: tmp, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, VSCODE_AGENT_FOLDER: serverData, ...(o.grep ? { CONTRACT_GUARD_GREP: o.grep } : {}) },
  });
  let browser;
  let finished = false;
  const cleanup = () => {
    killGroup(server, 'SIGTERM');
    setTimeout(() => killGroup(server, 'SIGKILL'), 2000).unref();
  };
  process.on('exit', () => killGroup(server, 'SIGKILL'));
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, () => {
      cleanup();
      process.exit(130);
    });
  }

  const finish = async (code, why) => {
    if (finished) return;
    finished = true;
    if (why) console.error(`[harness] ${why}`);
    try {
      if (browser) await Promise.race([browser.close(), new Promise((r) => setTimeout(r, 5000))]);
    } catch {
      /* closing a crashed browser */
    }
    cleanup();
    await new Promise((r) => setTimeout(r, 300));
    if (code === 2 || (o.ui && code !== 0)) {
      const tail = fs.existsSync(path.join(tmp, 'server.log'))
        ? fs.readFileSync(path.join(tmp, 'server.log'), 'utf8').split('\n').slice(-40).join('\n') : '';
      if (tail) console.error(`[harness] server log (last lines):\n${tail}`);
    }
    log(`exit ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (o.keep) log(`kept ${tmp}`);
    else fs.rmSync(tmp, { recursive: true, force: true });
    process.exit(code);
  };
  const timer = setTimeout(() => finish(2, `timeout after ${o.timeout} s`), o.timeout * 1000);
  timer.unref();

  await new Promise((resolve, reject) => {
    let buf = '';
    const onData = (d) => {
      serverLog.write(d);
      buf += d.toString();
      if (buf.includes('Extension host agent listening on')) resolve();
    };
    server.stdout.on('data', onData);
    server.stderr.on('data', (d) => serverLog.write(d));
    server.on('exit', (c, s) => reject(new Error(`VS Code server exited early (${c ?? s})`)));
  }).catch((e) => finish(2, e.message));
  if (finished) return;
  server.removeAllListeners('exit');
  server.on('exit', (c, s) => finish(2, `VS Code server exited (${c ?? s})`));
  log(`VS Code server on 127.0.0.1:${port} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  page.on('crash', () => finish(2, 'the page crashed'));
  page.on('pageerror', (e) => fs.appendFileSync(path.join(tmp, 'server.log'), `[page error] ${e.message}\n`));
  // the workbench's console (the development extension host's console.log arrives here too): kept with --keep
  page.on('console', (m) => fs.appendFileSync(path.join(tmp, 'server.log'), `[page ${m.type()}] ${m.text()}\n`));

  const remote = (p) => `vscode-remote://127.0.0.1:${port}${p.split(path.sep).join('/')}`;
  const payload = [['extensionDevelopmentPath', remote(extension)], ['skipWelcome', 'true']];
  if (o.tests) {
    // VS Code runs a suite in the extension host of the extension whose folder holds it: for the web-worker
    // host, the suite goes into the copy of the extension, at the same relative path.
    let tests = path.resolve(repo, o.tests);
    if (o.web) {
      const inCopy = path.join(extension, path.relative(repo, tests));
      copyInto(path.dirname(tests), path.dirname(inCopy));
      tests = inCopy;
    }
    payload.push(['extensionTestsPath', remote(tests)]);
  }

  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = Array.isArray(args) ? util.format(...args) : String(args);
    if (text.includes('No extension host found that can launch the test runner')) {
      finish(2, 'No extension host found that can launch the test runner');
    }
    if (o.tests && (o.verbose || !isNoise(text))) console.log(text);
    else fs.appendFileSync(path.join(tmp, 'server.log'), `[host ${type}] ${text}\n`);
  });
  await page.exposeFunction('codeAutomationExit', (code) => finish(o.tests ? (code === 0 ? 0 : 1) : 0));

  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace.split(path.sep).join('/'))}` +
    `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  log(`opening workbench (${o.web ? 'web-worker' : 'node'} extension host${o.vsix ? ', installed .vsix' : ''})`);
  await page.goto(url);

  if (o.ui) {
    const shots = path.join(outputDir, 'screenshots');
    fs.mkdirSync(shots, { recursive: true });
    log(`screenshots in ${path.relative(repo, shots) || shots}`);
    const script = require(path.resolve(repo, o.ui));
    const fn = typeof script === 'function' ? script : script.run;
    try {
      await fn({
        page, workspace, extension, log: (...a) => console.log(`[ui ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...a),
        screenshot: async (name) => {
          const file = path.join(shots, `${name}.png`);
          await page.screenshot({ path: file });
          console.log(`[ui ${((Date.now() - started) / 1000).toFixed(1)}s] screenshot ${path.relative(repo, file)}`);
          return file;
        },
      });
      console.log('  1 passing (UI script)');
      await finish(0);
    } catch (e) {
      console.log('  1 failing (UI script)');
      try {
        await page.screenshot({ path: path.join(shots, 'failure.png') });
        console.error(`[ui] failure screenshot ${path.relative(repo, path.join(shots, 'failure.png'))}`);
      } catch {
        /* page gone */
      }
      await finish(1, `UI script failed: ${e && e.stack ? e.stack : e}`);
    }
  }
}

main().catch((e) => {
  console.error('[harness]', e && e.stack ? e.stack : e);
  process.exitCode = 2;
  process.exit(2);
});
