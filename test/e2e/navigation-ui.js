// UI test of finding one's way in a large trace (node test/harness/run.js --ui test/e2e/navigation-ui.js): a 5,000-call
// Claude Code session written into the workspace, a jump to a call from the Outline, a tool found with Go to Symbol in
// Workspace, the Contract Guard view filtered to one code, and the decision table at the default width (beside the
// trace); each in a light and a dark theme. Screenshots: .test-output/screenshots/3x-*.png.
'use strict';
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { colorTheme, palette, run, statusBarPosition } = require('./workbench');

const FILE = 'session.claude.jsonl';
const CALLS = 5000;
const TOOLS = ['Read', 'Bash', 'Grep', 'Edit', 'Glob'];

/**
 * A Claude Code session log: one assistant line per call, its result on the next line. Every 250th Read names
 * `path` instead of `file_path` (missing-key, extra-key) and every 250th Bash passes its timeout as a string
 * (type-drift): 20 of each, against the built-in Claude Code pack.
 */
function claudeTrace(calls) {
  const lines = [];
  let uuid = 0;
  const base = (type) => ({ type, parentUuid: uuid ? `u${uuid - 1}` : null, isSidechain: false, userType: 'external', cwd: '/work/app', sessionId: 'nav-5000', version: '1.0.30', uuid: `u${uuid++}`, timestamp: '2026-01-01T00:00:00Z' });
  lines.push(JSON.stringify({ ...base('user'), message: { role: 'user', content: 'Tidy up the app module.' } }));
  for (let i = 0; i < calls; i++) {
    const name = TOOLS[i % 5];
    let input;
    if (name === 'Read') input = i % 250 === 0 ? { path: `/work/app/src/mod${i}.ts` } : { file_path: `/work/app/src/mod${i}.ts` };
    else if (name === 'Bash') input = { command: `npm test -- --grep case${i}`, description: 'Run one test', ...(i % 250 === 1 ? { timeout: '60000' } : {}) };
    else if (name === 'Grep') input = { pattern: `TODO${i}`, path: '/work/app/src' };
    else if (name === 'Edit') input = { file_path: `/work/app/src/mod${i}.ts`, old_string: `let v${i} = 1;`, new_string: `const v${i} = 1;` };
    else input = { pattern: `src/**/part${i}*.ts` };
    const id = `toolu_${String(i).padStart(6, '0')}`;
    lines.push(JSON.stringify({ ...base('assistant'), message: { id: `msg_${i}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4', content: [{ type: 'text', text: `Step ${i}.` }, { type: 'tool_use', id, name, input }] } }));
    lines.push(JSON.stringify({ ...base('user'), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] } }));
  }
  return lines.join('\n') + '\n';
}

async function waitForLine(page, line) {
  await page.waitForFunction((want) => (document.querySelector('.statusbar-item[id="status.editor.selection"]')?.textContent ?? '').startsWith(want), `Ln ${line},`, { timeout: 15000 });
}

/** The page inside the webview of the visible table. */
async function tableFrame(page) {
  const rows = page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame').locator('#rows');
  await rows.waitFor({ state: 'attached', timeout: 30000 });
  return (await rows.elementHandle()).ownerFrame();
}

/** The Outline: focus it, and the row of `label` (the tree is virtual: its rows in view). */
function outlineRow(page, label) {
  return page.locator('.outline-pane .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) }).first();
}

module.exports = async function ui({ page, screenshot, log, workspace }) {
  const dir = path.join(workspace, 'nav');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, FILE), claudeTrace(CALLS));
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60000 });
  await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ state: 'visible', timeout: 60000 });
  log('workbench ready');

  await run(page, FILE);
  await page.locator(`.tab.active:has-text("${FILE}")`).waitFor({ state: 'visible', timeout: 20000 });
  // checked on the worker thread (3.7 MB): the squiggles say it is done
  await page.locator('.monaco-editor .squiggly-error').first().waitFor({ state: 'attached', timeout: 60000 });
  // lens titles are resolved as they come into view
  await page.locator('.monaco-editor .codelens-decoration:has-text("Decision table")').first().waitFor({ state: 'visible', timeout: 20000 });
  await page.locator('.monaco-editor .codelens-decoration:has-text("as fixture")').first().waitFor({ state: 'visible', timeout: 20000 });
  const lenses = await page.locator('.monaco-editor .codelens-decoration').allInnerTexts();
  log(`lenses in view: ${JSON.stringify(lenses.map((t) => t.trim()))}`);
  assert.ok(lenses.some((t) => /Decision table/.test(t)), 'the session lens');
  assert.ok(lenses.some((t) => /Freeze Read as fixture \(.*missing-key/.test(t)), 'a lens on the failing Read');
  assert.ok(!lenses.some((t) => /Freeze Bash as fixture \(ok\)/.test(t)), 'no lens on a clean call');

  for (const [theme, cls, suffix] of [[undefined, undefined, 'light'], ['Dark Modern', 'vs-dark', 'dark']]) {
    if (theme) await colorTheme(page, theme, cls);

    // 1. the Outline: session → turns → calls; a click on a call moves the cursor to it. The folders pane is folded
    // so that the Outline and the Contract Guard view below it have room.
    const folders = page.locator('.pane-header:has-text("Workspace")').first();
    if ((await folders.getAttribute('aria-expanded')) === 'true') await folders.click();
    await run(page, '>Explorer: Focus on Outline View');
    await page.locator('.outline-pane .monaco-list-row').first().waitFor({ state: 'visible', timeout: 30000 });
    const session = outlineRow(page, 'Session nav-5000');
    await session.waitFor({ state: 'visible', timeout: 30000 });
    for (const label of ['Session nav-5000', 'Turn 3']) {
      const row = outlineRow(page, label);
      await row.waitFor({ state: 'visible', timeout: 10000 });
      if ((await row.getAttribute('aria-expanded')) === 'false') await row.locator('.monaco-tl-twistie').click();
    }
    const turn3 = outlineRow(page, 'Turn 3');
    const grep = outlineRow(page, 'Grep');
    await grep.waitFor({ state: 'visible', timeout: 10000 });
    const rowsText = (await page.locator('.outline-pane .monaco-list-row').allInnerTexts()).slice(0, 8).map((t) => t.replace(/\s+/g, ' ').trim());
    log(`outline rows: ${JSON.stringify(rowsText)}`);
    assert.match(rowsText[0], /^Session nav-5000 ?5000 calls, \d+ with findings/);
    assert.ok(await turn3.isVisible());
    await grep.click();
    await waitForLine(page, 6); // turn 3 is the call on line 6 (a user line, then an assistant and a result per call)
    log(`outline click on Grep (turn 3): ${await statusBarPosition(page)}`);
    // breadcrumbs show where the cursor is (once they have caught up with it)
    await page.waitForFunction(() => /Turn 3.*Grep/s.test(document.querySelector('.monaco-breadcrumbs')?.textContent ?? ''), null, { timeout: 15000 }).catch(() => undefined);
    const crumbs = (await page.locator('.monaco-breadcrumbs .monaco-breadcrumb-item').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
    log(`breadcrumbs: ${crumbs.join(' › ')}`);
    assert.ok(crumbs.includes('Turn 3') && crumbs.includes('Grep'), crumbs.join(' › '));
    await screenshot(`31-outline-${suffix}`);

    // 2. Go to Symbol in Workspace: a tool by its name, across the checked traces
    await palette(page, '#Glob');
    const symbolRows = page.locator('.quick-input-list .monaco-list-row');
    await page.locator('.quick-input-list .monaco-list-row:has-text("Glob")').first().waitFor({ state: 'visible', timeout: 30000 });
    const found = (await symbolRows.allInnerTexts()).slice(0, 3).map((t) => t.replace(/\s+/g, ' ').trim());
    log(`workspace symbols for "Glob": ${JSON.stringify(found)}`);
    assert.ok(found[0].includes(FILE), found[0]);
    await screenshot(`32-workspace-symbols-${suffix}`);
    // the first Glob is the fifth call, turn 5: line 10 (after the first user line, an assistant and a result line per call)
    const turn = Number(/turn (\d+)/.exec(found[0])[1]);
    await page.keyboard.press('Enter');
    await waitForLine(page, 2 * turn);
    const at = await statusBarPosition(page);
    const line = Number(/^Ln (\d+)/.exec(at)[1]);
    const text = fs.readFileSync(path.join(dir, FILE), 'utf8').split('\n')[line - 1];
    log(`Go to Symbol in Workspace → ${at}: ${text.slice(0, 120)}…`);
    assert.match(text, /"name":"Glob"/);

    // 3. the Contract Guard view, filtered to one code
    const outlineHeader = page.locator('.pane-header:has-text("Outline")').first();
    if ((await outlineHeader.getAttribute('aria-expanded')) === 'true') await outlineHeader.click();
    await run(page, '>Explorer: Focus on Contract Guard Traces View');
    const view = page.locator('.pane:has(.pane-header:has-text("Contract Guard Traces"))');
    await view.locator('.monaco-list-row').first().waitFor({ state: 'visible', timeout: 30000 });
    const unfiltered = (await view.locator('.monaco-list-row').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    log(`traces view: ${JSON.stringify(unfiltered)}`);
    assert.ok(unfiltered.some((t) => t.includes('boundary.anthropic.jsonl')), 'the workspace\'s traces, open or not');
    await run(page, '>Contract Guard: Filter Traces by Code…');
    await page.locator('.quick-input-list .monaco-list-row:has-text("missing-key")').first().waitFor({ state: 'visible', timeout: 10000 });
    await page.locator('.quick-input-widget input').fill('missing-key');
    await page.locator('.quick-input-list .monaco-list-row.focused:has-text("missing-key")').waitFor({ state: 'visible', timeout: 10000 });
    await page.keyboard.press('Enter');
    await view.locator('.pane-header:has-text("filtered: missing-key")').waitFor({ state: 'attached', timeout: 10000 });
    const trace = view.locator(`.monaco-list-row:has-text("${FILE}")`).first();
    await trace.waitFor({ state: 'visible', timeout: 10000 });
    if ((await trace.getAttribute('aria-expanded')) === 'false') await trace.click();
    const labelled = (label) => view.locator('.monaco-list-row').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) }).first();
    const findingsGroup = labelled('Findings');
    await findingsGroup.waitFor({ state: 'visible', timeout: 10000 });
    if ((await findingsGroup.getAttribute('aria-expanded')) === 'false') await findingsGroup.click();
    const codeRow = labelled('missing-key');
    await codeRow.waitFor({ state: 'visible', timeout: 10000 });
    if ((await codeRow.getAttribute('aria-expanded')) === 'false') await codeRow.click();
    await view.locator('.monaco-list-row:has-text("Read is missing file_path")').first().waitFor({ state: 'visible', timeout: 10000 });
    // the tree keeps its expanded rows from an earlier pass: wait for the filtered counts, not for rows drawn before
    await view.locator(`.monaco-list-row:has-text("${FILE}"):has-text("5000 calls · 20 findings")`).first().waitFor({ state: 'visible', timeout: 15000 }).catch(() => undefined);
    const viewRows = (await view.locator('.monaco-list-row').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    log(`traces view, filtered to missing-key: ${JSON.stringify(viewRows.slice(0, 10))}`);
    // the twenty Reads that name path instead of file_path
    assert.ok(viewRows.some((t) => t.includes(FILE) && /5000 calls · 20 findings/.test(t)), 'the trace with its 20 missing-key findings');
    assert.ok(!viewRows.some((t) => /extra-key|type-drift/.test(t)), 'no other code under the filter');
    // a trace without missing-key is hidden
    const files = (rows) => rows.filter((t) => /^\S+\.jsonl?\d+ calls? · /.test(t));
    assert.ok(files(viewRows).length < files(unfiltered).length, `fewer traces under the filter: ${files(viewRows).length} of ${files(unfiltered).length}`);
    // a click on a finding reveals it (the first Read, line 2)
    await view.locator('.monaco-list-row:has-text("Read is missing file_path")').first().click();
    await waitForLine(page, 2);
    log(`click on the first missing-key finding: ${await statusBarPosition(page)}`);
    await screenshot(`33-traces-view-${suffix}`);
    await run(page, '>Contract Guard: Clear Traces Filter');

    // 4. the decision table at the default width, beside the trace
    await page.locator(`.tab:has-text("${FILE}")`).first().click();
    await run(page, '>Contract Guard: Show Decision Table');
    const frame = await tableFrame(page);
    await frame.locator('#spacer .row').first().waitFor({ state: 'visible', timeout: 60000 });
    // the replay gate follows once the fixtures are replayed: a second build
    await frame.locator('#meta:has-text("fixtures read")').waitFor({ state: 'attached', timeout: 60000 });
    await frame.locator('#loading').waitFor({ state: 'hidden', timeout: 60000 });
    await frame.locator('#filter-failing').check();
    await frame.locator('#count:has-text("of 5000 calls")').waitFor({ state: 'visible', timeout: 10000 });
    log(`failing only: ${await frame.locator('#count').innerText()}`);
    const fit = await frame.evaluate(() => ({
      width: document.documentElement.clientWidth,
      rows: [...document.querySelectorAll('#spacer .row')].slice(0, 4).map((r) => `${r.querySelector('.tool').textContent} | ${r.querySelector('.codes').textContent}`),
      clipped: [...document.querySelectorAll('#spacer .row .tool, #spacer .row .codes')].filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent),
    }));
    log(`table at ${fit.width}px: ${JSON.stringify(fit.rows)}; clipped: ${JSON.stringify(fit.clipped)}`);
    assert.deepStrictEqual(fit.clipped, []);
    assert.ok(fit.rows.some((r) => r.includes('missing-key')), 'the failing codes are spelled out');
    await screenshot(`34-table-default-width-${suffix}`);
    await frame.locator('#filter-failing').uncheck();
    await run(page, '>View: Close All Editors');
    await run(page, FILE);
    await page.locator(`.tab.active:has-text("${FILE}")`).waitFor({ state: 'visible', timeout: 20000 });
  }
};
