// UI test against the real workbench (run by test/harness/run.js --ui): open a trace, see the squiggles, hover
// one and read its message, open Problems, run "Check Workspace Contracts" from the command palette.
// Screenshots go to .test-output/screenshots/ — look at them.
'use strict';
const assert = require('node:assert');
const { run: quickOpen } = require('./workbench');
const fs = require('node:fs');
const path = require('node:path');

const TRACE = 'hours.calls.jsonl';

module.exports = async function ui({ page, screenshot, log, workspace }) {
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60000 });
  await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ state: 'visible', timeout: 60000 });
  log('workbench ready');

  // 1. open a trace: squiggles on the exact tokens, the status bar item with its counts
  await quickOpen(page, TRACE);
  await page.locator(`.tab.active:has-text("${TRACE}")`).waitFor({ state: 'visible' });
  const errors = page.locator('.monaco-editor .squiggly-error');
  await errors.first().waitFor({ state: 'attached', timeout: 20000 });
  await page.waitForFunction(() => document.querySelectorAll('.monaco-editor .squiggly-error').length >= 5, null, { timeout: 20000 });
  const status = page.locator('.statusbar-item:has-text("calls")');
  await status.waitFor({ state: 'visible', timeout: 10000 });
  const statusText = (await status.innerText()).replace(/\s+/g, ' ').trim();
  log(`status bar: ${statusText}`);
  assert.match(statusText, /6 calls/);
  await screenshot('01-trace-squiggles');

  // 2. hover the squiggle under `true` on line 3: the message, the value found, the contract excerpt
  // the rendered line holding `"weekday": true` (view lines are not in DOM order, and CodeLenses that arrive
  // after the squiggles move the lines: measure again and retry when the first hover misses)
  const hover = page.locator('.monaco-hover-content:visible');
  // the lenses above the calls come in (their titles resolved when shown) and push the lines down: wait for them
  await page.waitForFunction(() => [...document.querySelectorAll('.monaco-editor .codelens-decoration')].filter((e) => /as fixture/.test(e.textContent ?? '')).length >= 5, null, { timeout: 20000 }); // the five calls with findings
  for (let attempt = 1; ; attempt++) {
    const lineTop = await page.locator('.monaco-editor .view-line:has-text(\'"weekday": true\')').first().boundingBox();
    const boxes = [];
    for (const sq of await errors.all()) {
      const b = await sq.boundingBox();
      if (b) boxes.push(b);
    }
    const onLine3 = boxes.find((b) => Math.abs(b.y + b.height / 2 - (lineTop.y + lineTop.height / 2)) < lineTop.height / 2);
    if (!onLine3 && attempt < 3) {
      log(`no squiggle on the line of "weekday": true yet (attempt ${attempt}, ${boxes.length} squiggles), measuring again`);
      await page.waitForTimeout(500);
      continue;
    }
    assert.ok(onLine3, `a squiggle on line 3 (${boxes.length} squiggles)`);
    await page.mouse.move(5, 5);
    await page.mouse.move(onLine3.x + onLine3.width / 2, onLine3.y + onLine3.height / 2, { steps: 3 });
    try {
      await hover.first().waitFor({ state: 'visible', timeout: 4000 });
      break;
    } catch (e) {
      if (attempt === 3) throw e;
      log(`hover missed (attempt ${attempt}), measuring again`);
    }
  }
  await page.waitForFunction(() => [...document.querySelectorAll('.monaco-hover-content')].some((e) => /Contract of/.test(e.textContent ?? '')), null, { timeout: 10000 });
  const hoverText = (await hover.allInnerTexts()).join(' ').replace(/\s+/g, ' ');
  log(`hover: ${hoverText.slice(0, 200)}`);
  assert.match(hoverText, /weekday wanted integer, got boolean true/);
  assert.match(hoverText, /type-drift/);
  assert.match(hoverText, /Contract of get_hours, argument weekday/);
  assert.match(hoverText, /fixtures\/contracts\/hours\.contract\.json/);
  await screenshot('02-hover');
  await page.mouse.move(5, 5);
  await page.keyboard.press('Escape');

  // 3. the Problems panel lists them, with source and code
  await page.keyboard.press('Control+Shift+M');
  const rows = page.locator('.markers-panel .monaco-list-row');
  await rows.first().waitFor({ state: 'visible', timeout: 10000 });
  await page.waitForFunction(() => document.querySelectorAll('.markers-panel .monaco-list-row').length >= 6, null, { timeout: 10000 });
  const problems = (await page.locator('.markers-panel').innerText()).replace(/\s+/g, ' ');
  assert.match(problems, /weekday wanted integer, got string "2"/);
  assert.match(problems, /Contract Guard/);
  assert.match(problems, /type-drift/);
  assert.doesNotMatch(problems, /rooms\.openai-chat\.json/, 'unopened traces are not listed before the workspace check');
  await screenshot('03-problems');

  // 4. the command palette runs Check Workspace Contracts: a summary notification, and the unopened traces in Problems
  await quickOpen(page, '>Check Workspace Contracts');
  const toast = page.locator('.notifications-toasts .notification-toast:has-text("calls in")');
  await toast.waitFor({ state: 'visible', timeout: 30000 });
  const toastText = (await toast.innerText()).replace(/\s+/g, ' ');
  log(`notification: ${toastText}`);
  assert.match(toastText, /Contract Guard: \d+ calls in \d+ traces: \d+ errors?, \d+ warnings?/);
  assert.match(toastText, /Show First Problem/);
  await page.waitForTimeout(600); // let the toast finish fading in
  await screenshot('04-workspace-check');
  // "Show First Problem" opens the first trace with a problem, the cursor on that problem
  await toast.locator('a.monaco-button:has-text("Show First Problem"), .monaco-button:has-text("Show First Problem")').first().click();
  await page.waitForFunction(() => !/hours\.calls\.jsonl/.test(document.querySelector('.tab.active')?.textContent ?? ''), null, { timeout: 10000 });
  const firstTab = (await page.locator('.tab.active .label-name').first().innerText()).trim();
  const cursor = (await page.locator('.statusbar-item:has-text("Ln ")').first().innerText()).match(/Ln (\d+), Col (\d+)/);
  assert.ok(cursor, 'cursor position in the status bar');
  log(`first problem: ${firstTab} at Ln ${cursor[1]}, Col ${cursor[2]}`);
  // unopened traces are now in Problems: filter the (virtualised) list down to one of them
  const filter = page.locator('.part.panel input[placeholder^="Filter"]');
  await filter.fill('rooms.openai-chat');
  const roomsRows = page.locator('.markers-panel .monaco-list-row:has-text("room_id wanted one of")');
  await roomsRows.first().waitFor({ state: 'visible', timeout: 10000 });
  const filtered = (await page.locator('.markers-panel').innerText()).replace(/\s+/g, ' ');
  assert.match(filtered, /rooms\.openai-chat\.json/);
  assert.match(filtered, /book_room is missing minutes \(required\)/);
  await screenshot('05-problems-unopened-trace');
  await filter.fill(firstTab);
  await page.waitForTimeout(500);
  const firstFile = (await page.locator('.markers-panel').innerText()).replace(/\s+/g, ' ');
  assert.ok(firstFile.includes(`[Ln ${cursor[1]}, Col ${cursor[2]}]`), `a problem of ${firstTab} at the cursor: ${firstFile.slice(0, 300)}`);
  await filter.fill('');

  // 5. plain JSON: package.json opens with nothing from Contract Guard (the JSON language server may have its own
  //    opinions about it) and without the status bar item
  await quickOpen(page, 'package.json');
  await page.locator('.tab.active:has-text("package.json")').waitFor({ state: 'visible' });
  await page.waitForTimeout(1500);
  await filter.fill('package.json');
  await page.waitForTimeout(500);
  const pkgProblems = (await page.locator('.markers-panel').innerText()).replace(/\s+/g, ' ');
  assert.doesNotMatch(pkgProblems, /Contract Guard/, 'no Contract Guard problems in package.json');
  assert.strictEqual(await page.locator('.statusbar-item:has-text("calls")').count(), 0, 'no status bar item for package.json');
  await screenshot('06-package-json');
  await filter.fill('');

  // 6. a long workspace check can be cancelled from its progress notification
  const many = path.join(workspace, 'many', 'traces');
  fs.mkdirSync(many, { recursive: true });
  const sample = fs.readFileSync(path.join(workspace, 'fixtures', 'traces', 'weather.openai-chat.jsonl'));
  for (let i = 0; i < 400; i++) fs.writeFileSync(path.join(many, `copy-${String(i).padStart(4, '0')}.jsonl`), sample);
  await page.locator('.notifications-toasts .notification-toast .codicon-notifications-clear').first().click({ timeout: 1000 }).catch(() => undefined);
  await quickOpen(page, '>Check Workspace Contracts');
  const progress = page.locator('.notifications-toasts .notification-toast:has-text("Contract Guard")').filter({ has: page.locator('.monaco-button:has-text("Cancel")') });
  await progress.first().waitFor({ state: 'visible', timeout: 20000 });
  await page.waitForFunction(() => /\d+\/\d+ many/.test(document.querySelector('.notifications-toasts')?.textContent ?? ''), null, { timeout: 20000 });
  await screenshot('07-workspace-check-progress');
  await progress.first().locator('.monaco-button:has-text("Cancel")').click();
  const cancelled = page.locator('.notifications-toasts .notification-toast:has-text("Cancelled after")');
  await cancelled.waitFor({ state: 'visible', timeout: 20000 });
  const cancelledText = (await cancelled.innerText()).replace(/\s+/g, ' ');
  log(`cancelled: ${cancelledText}`);
  const done = Number(cancelledText.match(/in (\d+) traces?/)[1]);
  assert.ok(done < 400, `stopped early (${done} traces checked)`);
  await page.waitForTimeout(600); // let the toast finish fading in
  await screenshot('08-workspace-check-cancelled');

  // 7. an Inspect AI .eval (a zip) opens as its calls page; a tool's link opens the read-only JSON view at the call
  const { strToU8, zipSync } = require('fflate');
  const evalSample = (id, weekday) => ({ id, epoch: 1, messages: [
    { role: 'user', content: 'When is the Killam library open on Monday?' },
    { role: 'assistant', content: 'Checking.', tool_calls: [{ id: `call_${id}`, function: 'get_hours', arguments: { building: 'Killam', weekday } }] },
    { role: 'tool', tool_call_id: `call_${id}`, function: 'get_hours', content: '08:00-22:00' },
  ] });
  fs.mkdirSync(path.join(workspace, 'evals'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'evals', 'hours.eval'), zipSync({
    'header.json': strToU8(JSON.stringify({ version: 2, status: 'success', eval: { task: 'hours', model: 'mockllm/model' } })),
    'samples/1_epoch_1.json': strToU8(JSON.stringify(evalSample(1, '1'), null, 2)),
    'samples/2_epoch_1.json': strToU8(JSON.stringify(evalSample(2, 1), null, 2)),
  }));
  await page.locator('.notifications-toasts .notification-toast .codicon-notifications-clear').first().click({ timeout: 1000 }).catch(() => undefined);
  // from the explorer, as a person opens it (quick open's file index has not seen the new file yet)
  await page.locator('.explorer-folders-view .monaco-list-row:has-text("evals")').first().click();
  await page.locator('.explorer-folders-view .monaco-list-row:has-text("hours.eval")').first().click();
  const calls = page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame').locator('table tbody tr');
  await calls.first().waitFor({ state: 'visible', timeout: 20000 });
  const callRows = (await calls.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  log(`eval calls page: ${callRows.join(' | ')}`);
  assert.strictEqual(callRows.length, 2);
  assert.match(callRows[0], /^1#1 1 get_hours \{"building": "Killam", "weekday": "1"\} type-drift$/);
  assert.match(callRows[1], /^2#1 1 get_hours \{"building": "Killam", "weekday": 1\} ok$/);
  await screenshot('09-eval-calls-page');
  await calls.first().locator('a').click();
  await page.locator('.tab.active:has-text("hours.eval.json")').waitFor({ state: 'visible', timeout: 20000 });
  await page.locator('.monaco-editor .squiggly-error').first().waitFor({ state: 'attached', timeout: 20000 });
  log(`eval JSON view: ${await page.locator('.statusbar-item[id="status.editor.selection"]').innerText()}`);
  await screenshot('10-eval-json-view');
};
