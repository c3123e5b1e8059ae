// UI test (run by test/harness/run.js --ui): a file that looks like a trace but that no reader reads shows
// "Contract Guard: not read as a trace" in the status bar; clicking it opens Read Trace As…, whose first item is
// "Detect automatically". Screenshots go to .test-output/screenshots/ — look at them.
'use strict';
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { run: quickOpen } = require('./workbench');

module.exports = async function readingUi({ page, screenshot, log, workspace }) {
  const dir = path.join(workspace, 'reading');
  fs.mkdirSync(dir, { recursive: true });
  const events = { events: [{ kind: 'step', payload: { text: 'looked it up' } }, { kind: 'step', payload: { text: 'done' } }] };
  fs.writeFileSync(path.join(dir, 'export.json'), JSON.stringify(events, null, 2) + '\n');
  fs.copyFileSync(path.join(workspace, 'fixtures', 'traces', 'hours.calls.jsonl'), path.join(dir, 'hours-log.txt'));

  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60000 });
  await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ state: 'visible', timeout: 60000 });

  // a trace saved as .txt is read: squiggles and the counts
  await quickOpen(page, 'hours-log.txt');
  await page.locator('.tab.active:has-text("hours-log.txt")').waitFor({ state: 'visible' });
  await page.waitForFunction(() => document.querySelectorAll('.monaco-editor .squiggly-error').length >= 5, null, { timeout: 20000 });
  const counts = page.locator('.statusbar-item:has-text("6 calls")');
  await counts.waitFor({ state: 'visible', timeout: 10000 });
  await screenshot('reading-01-txt-trace');

  // a trace-looking file no reader reads: the status item, with the command
  await quickOpen(page, 'export.json');
  await page.locator('.tab.active:has-text("export.json")').waitFor({ state: 'visible' });
  const item = page.locator('.statusbar-item:has-text("not read as a trace")');
  await item.waitFor({ state: 'visible', timeout: 20000 });
  const text = (await item.innerText()).replace(/\s+/g, ' ').trim();
  log(`status bar: ${text}`);
  assert.match(text, /Contract Guard: not read as a trace/);
  assert.strictEqual(await page.locator('.statusbar-item:has-text("6 calls")').count(), 0, 'the counts of the other file are gone');
  await screenshot('reading-02-not-read');

  await item.click();
  const rows = page.locator('.quick-input-list .monaco-list-row');
  await rows.first().waitFor({ state: 'visible', timeout: 10000 });
  const first = (await rows.first().innerText()).replace(/\s+/g, ' ').trim();
  log(`first pick: ${first}`);
  assert.match(first, /^Detect automatically/);
  assert.ok((await rows.count()) > 5, 'the readers follow');
  await screenshot('reading-03-read-as-pick');
  await page.keyboard.press('Escape');
};
