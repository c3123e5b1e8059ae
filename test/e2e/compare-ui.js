// UI test of Compare Traces in the real workbench (node test/harness/run.js --ui test/e2e/compare-ui.js): two runs
// compared from the explorer's context menu (Select for Compare, Compare with Selected), the new shapes and findings
// read inside the webview, a click and the keyboard revealing calls, light and dark screenshots, mock coverage from
// the palette with a freeze from the page, a hostile trace rendered as inert text, and a `check --format markdown`
// summary in VS Code's markdown preview. Screenshots: .test-output/screenshots/compare-*.png.
'use strict';
const assert = require('node:assert');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { colorTheme, palette, run, statusBarPosition } = require('./workbench');

const RUN_A = {
  'hours.calls.jsonl': [
    '{"name": "get_hours", "arguments": {"building": "Killam", "weekday": 2}}',
    '{"name": "get_hours", "arguments": {"building": "Killam", "weekday": true}}',
    '{"name": "get_hours", "arguments": {"building": "", "weekday": 3}}',
  ],
  'weather.calls.jsonl': [
    '{"name": "get_weather", "arguments": {"city": "Halifax", "units": "metric"}}',
    '{"name": "get_weather", "arguments": {"city": "Truro", "units": "metric"}}',
  ],
};
// B: the moved weekday: true stays "unchanged"; a new type-drift, two new shapes (lang; units missing), a new tool
const RUN_B = {
  'hours.calls.jsonl': [
    '{"name": "get_hours", "arguments": {"building": "Dal", "weekday": 1}}',
    '{"name": "get_hours", "arguments": {"building": "Killam", "weekday": true}}',
    '{"name": "get_hours", "arguments": {"building": "Killam", "weekday": "2"}}',
    '{"name": "get_hours", "arguments": {"building": "Killam", "weekday": 2, "lang": "en"}}',
  ],
  'weather.calls.jsonl': [
    '{"name": "get_weather", "arguments": {"city": "Halifax", "units": "metric"}}',
    '{"name": "get_weather", "arguments": {"city": "Sydney"}}',
    '{"name": "get_forecast", "arguments": {"city": "Halifax", "days": 3}}',
  ],
};

function writeRun(workspace, dir, files) {
  fs.mkdirSync(path.join(workspace, dir), { recursive: true });
  for (const [name, lines] of Object.entries(files)) fs.writeFileSync(path.join(workspace, dir, name), lines.join('\n') + '\n');
}

/** The page inside the (only) webview: the inner #active-frame. */
async function webviewFrame(page, selector) {
  const target = page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame').locator(selector);
  await target.waitFor({ state: 'attached', timeout: 30000 });
  return (await target.elementHandle()).ownerFrame();
}

async function compared(page) {
  const frame = await webviewFrame(page, '#main');
  await frame.locator('#main:not([hidden])').waitFor({ state: 'attached', timeout: 60000 });
  return frame;
}

/** Right-click an explorer row and choose `item` in the Contract Guard submenu. */
async function explorerMenu(page, row, item) {
  const sub = page.locator('.monaco-menu .action-item:has-text("Contract Guard")').first();
  const entry = page.locator('.monaco-submenu .action-label', { hasText: item }).first();
  // right after start-up the menu may come without the extension's entries, and a context key set by the previous
  // command (the extension activating on it) a moment late: open the menu again
  for (let attempt = 1; ; attempt++) {
    await page.locator(`.explorer-folders-view .monaco-list-row:has-text("${row}")`).first().click({ button: 'right' });
    try {
      await sub.waitFor({ state: 'visible', timeout: 3000 });
      await sub.hover();
      await sub.click();
      await entry.waitFor({ state: 'visible', timeout: 3000 });
      break;
    } catch (e) {
      if (attempt === 5) throw e;
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
      await page.waitForTimeout(1000);
    }
  }
  await entry.hover();
  await page.waitForTimeout(300); // the submenu settles (it is drawn again on hover)
  await entry.click();
  try {
    await page.locator('.monaco-submenu').waitFor({ state: 'detached', timeout: 2000 });
  } catch {
    // the click fell between two draws of the submenu: the entry is focused, Enter runs it
    await page.keyboard.press('Enter');
    await page.locator('.monaco-submenu').waitFor({ state: 'detached', timeout: 5000 });
  }
}

/** Choose the quick pick row whose label is exactly `label` (after typing it as the filter). */
async function pick(page, label) {
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 20000 });
  await input.fill(label);
  const row = page.locator('.quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\s*$`) }) }).first();
  await row.waitFor({ state: 'visible', timeout: 20000 });
  await row.click();
}

const shapes = (frame, sel) => frame.evaluate((s) => [...document.querySelectorAll(s)].map((tr) => `${tr.dataset.tool} ${tr.querySelector('.label').textContent}`), sel);
const findings = (frame, id) => frame.evaluate((i) => [...document.querySelectorAll(`#${i} li.finding`)].map((li) => `${li.dataset.code} ${li.dataset.tool ?? ''}`.trim()).sort(), id);

module.exports = async function ui({ page, screenshot, log, workspace, extension }) {
  writeRun(workspace, 'run-a', RUN_A);
  writeRun(workspace, 'run-b', RUN_B);
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60000 });
  await page.locator('.explorer-folders-view .monaco-list-row:has-text("run-b")').first().waitFor({ state: 'visible', timeout: 60000 });
  // the extension's contributions are there once the palette knows its commands
  await palette(page, '>Contract Guard: Compare Traces');
  await page.keyboard.press('Escape');
  log('workbench ready');

  // 1. the explorer, as VS Code compares files: Select for Compare on run-a, Compare with Selected on run-b
  await explorerMenu(page, 'run-a', 'Select for Compare');
  const t0 = Date.now();
  await explorerMenu(page, 'run-b', 'Compare with Selected');
  let frame = await compared(page);
  log(`compared in ${Date.now() - t0} ms (seen by the test); ${(await frame.locator('#progress').innerText()).trim()}`);
  const verdict = (await frame.locator('#verdict').innerText()).trim();
  log(`verdict: ${verdict}`);
  assert.match(verdict, /^✗ B differs from A: 3 new shapes, \d+ new findings/);
  assert.deepStrictEqual(await shapes(frame, '#shapes-body tr.shape.new'), ['get_hours {building, lang, weekday}', 'get_weather {city}', 'get_forecast {city, days}']);
  const added = await findings(frame, 'new');
  log(`new findings: ${added.join(', ')}`);
  for (const f of ['type-drift get_hours', 'extra-key get_hours', 'missing-key get_weather', 'unknown-tool get_forecast']) assert.ok(added.includes(f), f);
  assert.deepStrictEqual(await findings(frame, 'fixed'), ['constraint get_hours']);
  assert.strictEqual(await frame.locator('#sec-unchanged summary').innerText(), 'Unchanged (1): type-drift ×1');
  assert.strictEqual(await frame.locator('#head-a').innerText(), 'A run-a');
  assert.strictEqual(await frame.locator('tr.tool.new .badge.new').innerText(), 'new tool');
  await frame.locator('#sec-unchanged summary').click(); // open the third list for the screenshot
  await screenshot('compare-light');

  // 2. a click on the new lang shape's row reveals its call in run-b (line 4, the whole call selected)
  await frame.locator('#shapes-body tr.shape.new').first().locator('button.link').click();
  await page.waitForFunction(() => /^Ln 4, Col \d+ \(\d+ selected\)/.test(document.querySelector('.statusbar-item[id="status.editor.selection"]')?.textContent ?? ''), null, { timeout: 10000 });
  await page.locator('.tab.active:has-text("hours.calls.jsonl")').waitFor({ state: 'visible' });
  log(`after the click: ${await statusBarPosition(page)} in run-b/hours.calls.jsonl`);

  // 3. the keyboard: focus the first new finding's link, Down to the extra-key one (line 4), Enter reveals its key
  const links = frame.locator('#new button.link');
  await links.first().focus();
  await page.keyboard.press('ArrowDown');
  const focused = await frame.evaluate(() => document.activeElement?.closest('li')?.dataset.code);
  assert.strictEqual(focused, 'extra-key', 'ArrowDown moved to the next finding');
  await page.keyboard.press('Enter');
  const sixSelected = () => page.waitForFunction(() => /^Ln 4, Col \d+ \(6 selected\)/.test(document.querySelector('.statusbar-item[id="status.editor.selection"]')?.textContent ?? ''), null, { timeout: 10000 });
  // the editor shows the selection at once, but the status bar's selection item is drawn only once the editor has
  // the focus, which on a loaded machine can come after the webview gives it up: then the tab is clicked
  // (a click on a tab keeps the editor's selection), and the selection must still be the 6 characters of "lang"
  await sixSelected().catch(async () => {
    await page.locator('.tab.active:has-text("hours.calls.jsonl")').click();
    await sixSelected();
  });
  log(`keyboard: ArrowDown + Enter on the extra-key finding -> ${await statusBarPosition(page)} ("lang" selected)`);
  await page.waitForTimeout(300);
  await page.locator('.tab.active:has-text("hours.calls.jsonl")').click(); // the workbench has the keyboard again

  // 4. a dark theme: the page follows it
  await colorTheme(page, 'Dark Modern', 'vs-dark');
  frame = await compared(page);
  const bg = await frame.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const [r, g, b] = bg.match(/\d+/g).map(Number);
  assert.ok(r + g + b < 200, `a dark background, got ${bg}`);
  await frame.evaluate(() => window.scrollTo(0, 0));
  await screenshot('compare-dark');

  // 5. mock coverage from the palette: Compare with Fixtures, run B picked in the quick pick
  await run(page, '>View: Close All Editors');
  await run(page, '>Contract Guard: Compare with Fixtures');
  await pick(page, 'run-b');
  frame = await compared(page);
  await frame.locator('#sec-coverage:not([hidden])').waitFor({ state: 'attached', timeout: 30000 });
  const coverage = (await frame.locator('#coverage-summary').innerText()).trim();
  log(`coverage: ${coverage}`);
  const uncovered = await shapes(frame, '#coverage .uncovered');
  log(`uncovered: ${uncovered.join(' | ')}`);
  // {building, weekday} and get_weather's {city} are covered by frozen fixtures of those tools
  assert.deepStrictEqual(uncovered, ['get_hours {building, lang, weekday}', 'get_forecast {city, days}']);
  const before = fs.readdirSync(path.join(workspace, 'fixtures', 'frozen'));
  const row = frame.locator('#coverage .uncovered[data-tool="get_forecast"]');
  await row.locator('button.freeze-button').click();
  await row.locator('.frozen.written').waitFor({ state: 'visible', timeout: 15000 });
  const frozenAs = (await row.locator('.frozen').innerText()).trim();
  log(`freeze: ${frozenAs}`);
  assert.match(frozenAs, /^frozen as fixtures\/frozen\/get_forecast\/get_forecast-[0-9a-f]{12}\.fixture\.json$/);
  assert.ok(!before.includes('get_forecast') && fs.existsSync(path.join(workspace, frozenAs.replace('frozen as ', ''))));
  // the freeze opened the fixture beside the page; bring the page back for the screenshots
  await page.locator('.tab:has-text("Compare: frozen")').first().click();
  frame = await compared(page);
  await frame.locator('#coverage .frozen.written').waitFor({ state: 'visible', timeout: 15000 });
  await screenshot('compare-fixtures-dark');
  await colorTheme(page, 'Light Modern', 'vs');
  await frame.waitForFunction(() => getComputedStyle(document.body).backgroundColor.match(/\d+/g).map(Number).reduce((x, y) => x + y) > 600, null, { timeout: 10000 });
  await screenshot('compare-fixtures-light');

  // 6. a hostile trace as run B: its tool names and messages are text, nothing runs
  await run(page, '>View: Close All Editors');
  await run(page, '>Contract Guard: Compare Traces…');
  await pick(page, 'run-a');
  await pick(page, 'fixtures/table/hostile.anthropic.jsonl');
  frame = await compared(page);
  await page.waitForTimeout(500); // give an injected handler (img onerror) time to fire, if any had been created
  const probe = await frame.evaluate(() => ({
    pwned: window.__pwned,
    title: document.title,
    tools: [...document.querySelectorAll('tr.tool .tool-name')].map((e) => e.textContent),
    scripts: [...document.querySelectorAll('script')].map((x) => (x.src ? x.src.replace(/^.*\//, '') : 'inline:' + x.textContent.slice(0, 40))),
    traceScripts: [...document.querySelectorAll('script')].filter((x) => /pwned/.test(x.outerHTML)).length,
    injected: document.querySelectorAll('main img, main iframe, main svg, main a, main style, main object, main embed, main b, main script').length,
    bodyVisible: getComputedStyle(document.body).display !== 'none',
  }));
  log(`hostile probe: ${JSON.stringify(probe)}`);
  assert.strictEqual(probe.pwned, undefined, 'no script from the trace ran');
  assert.strictEqual(probe.title, 'Compare runs');
  assert.ok(probe.tools.includes('<script>window.__pwned=1;document.title="PWNED"</script>'), probe.tools.join(' | '));
  assert.ok(probe.tools.includes('<img src=x onerror="window.__pwned=2">'));
  assert.strictEqual(probe.scripts.filter((x) => x === 'compare.js').length, 1, 'the page\'s own script, once');
  assert.strictEqual(probe.traceScripts, 0, 'no script element from the trace');
  assert.strictEqual(probe.injected, 0, 'no element from the trace');
  assert.ok(probe.bodyVisible);
  assert.strictEqual(await page.evaluate(() => window.__pwned), undefined, 'nor in the workbench');
  await screenshot('compare-hostile');

  // 7. the CI summary: `contract-guard check --format markdown`, saved to a .md file, in the markdown preview
  const cli = path.join(extension, 'dist', 'cli.js');
  const md = spawnSync(process.execPath, [cli, 'check', 'fixtures/traces', '--contracts', 'fixtures/contracts', '--format', 'markdown'], { cwd: workspace, encoding: 'utf8' });
  assert.strictEqual(md.status, 1, `check finds problems in fixtures/traces: ${md.stderr}`);
  assert.match(md.stdout, /^### Contract Guard: check/);
  fs.writeFileSync(path.join(workspace, 'summary.md'), md.stdout);
  await run(page, '>View: Close All Editors');
  await run(page, 'summary.md');
  await page.locator('.tab.active:has-text("summary.md")').waitFor({ state: 'visible', timeout: 20000 });
  await run(page, '>Markdown: Open Preview');
  const preview = await webviewFrame(page, 'h3 >> nth=0');
  await preview.locator('table').first().waitFor({ state: 'visible', timeout: 30000 });
  const heading = (await preview.locator('h3').first().innerText()).trim();
  const fileLinks = await preview.locator('a[href*="fixtures/traces/"]').count();
  log(`markdown preview: "${heading}", ${await preview.locator('table').count()} tables, ${fileLinks} file links`);
  assert.strictEqual(heading, 'Contract Guard: check');
  assert.ok(fileLinks > 0, 'the first findings link to file:line');
  await screenshot('compare-markdown-summary');
};
