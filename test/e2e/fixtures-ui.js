// UI test against the real workbench (test/harness/run.js --ui test/e2e/fixtures-ui.js): the freeze CodeLens on
// each call, the "Freeze this call as a fixture" quick-fix on a squiggle, and the fixtures in the Test Explorer
// after "Contract Guard: Replay Fixtures". Screenshots go to .test-output/screenshots/ — look at them.
'use strict';
const assert = require('node:assert');
const { run: quickOpen, goToLine } = require('./workbench');

const TRACE = 'hours.calls.jsonl';

module.exports = async function ui({ page, screenshot, log }) {
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60000 });
  await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ state: 'visible', timeout: 60000 });
  log('workbench ready');

  // 1. a trace: one "Freeze ... as fixture (verdict)" lens above each call
  await quickOpen(page, TRACE);
  await page.locator(`.tab.active:has-text("${TRACE}")`).waitFor({ state: 'visible' });
  await page.locator('.monaco-editor .squiggly-error').first().waitFor({ state: 'attached', timeout: 20000 });
  const lenses = page.locator('.monaco-editor .codelens-decoration:has-text("as fixture")');
  await lenses.first().waitFor({ state: 'visible', timeout: 20000 });
  await page.waitForFunction(() => document.querySelectorAll('.monaco-editor .codelens-decoration').length >= 6, null, { timeout: 20000 });
  const lensTexts = (await lenses.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  log(`lenses: ${lensTexts.join(' | ')}`);
  assert.ok(lensTexts.some((t) => /Freeze get_hours as fixture \(type-drift\)/.test(t)));
  assert.ok(lensTexts.some((t) => /Freeze get_open_now as fixture \(unknown-tool\)/.test(t)));
  await screenshot('11-fixtures-codelens');

  // 2. the quick-fix on the `true` of line 3
  await goToLine(page, 3, 70, TRACE);
  await page.keyboard.press('Control+.');
  const fix = page.locator('.action-widget .monaco-list-row:has-text("Freeze this call as a fixture")');
  await fix.first().waitFor({ state: 'visible', timeout: 10000 });
  await screenshot('12-fixtures-quickfix');
  await page.keyboard.press("Enter");
  // the fixture of this call is in the repo already: it is opened, and nothing is overwritten
  const toast = page.locator('.notifications-toasts .notification-toast:has-text("already exists")');
  await toast.waitFor({ state: 'visible', timeout: 15000 });
  const toastText = (await toast.innerText()).replace(/\s+/g, ' ');
  log(`notification: ${toastText}`);
  assert.match(toastText, /a fixture of this call already exists: fixtures\/frozen\/get_hours\/get_hours-[0-9a-f]{12}\.fixture\.json\. Opened it; nothing was overwritten\./);
  await page.locator('.tab:has-text(".fixture.json")').first().waitFor({ state: 'visible', timeout: 10000 });
  await screenshot('13-fixtures-opened');

  // 3. replay from the command palette, then the Test Explorer: one test per fixture, grouped by tool, all passed
  await quickOpen(page, '>Contract Guard: Replay Fixtures');
  await quickOpen(page, '>Testing: Focus on Test Explorer View');
  const tree = page.locator('.test-explorer .monaco-list');
  await tree.waitFor({ state: 'visible', timeout: 20000 });
  const group = page.locator('.test-explorer .monaco-list-row:has-text("get_hours")').first();
  await group.waitFor({ state: 'visible', timeout: 20000 });
  await group.click();
  await page.keyboard.press('ArrowRight');
  await page.locator('.test-explorer .monaco-list-row:has-text("get_hours-")').first().waitFor({ state: 'visible', timeout: 10000 });
  // every row (tool groups and the expanded get_hours tests) has its result: the run is over
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('.test-explorer .monaco-list-row')];
    return rows.length >= 15 && rows.every((r) => r.querySelector('.codicon-testing-passed-icon, .codicon-testing-failed-icon, .codicon-testing-error-icon'));
  }, null, { timeout: 30000 });
  const rows = (await page.locator('.test-explorer .monaco-list-row').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  log(`test explorer: ${rows.slice(0, 12).join(' | ')}`);
  assert.ok(rows.some((r) => /^book_room/.test(r)) && rows.some((r) => /^get_weather/.test(r)), 'grouped by tool');
  assert.strictEqual(await page.locator('.test-explorer .codicon-testing-failed-icon').count(), 0, 'no failed fixture');
  await screenshot('14-fixtures-test-explorer');
};
