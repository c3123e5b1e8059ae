// Workbench steps the UI scripts share: the command palette, quick open, and "Go to Line/Column" done so that a
// keystroke lost to the webview (which holds the focus after a click in it) is retried instead of failing the run.
'use strict';

const QUICK_INPUT = '.quick-input-widget input';

/** F1, type `text`, wait until a row of the list is focused (the palette has answered). */
async function palette(page, text) {
  await page.keyboard.press('F1');
  const input = page.locator(QUICK_INPUT);
  await input.waitFor({ state: 'visible' });
  await input.fill(text);
  await page.locator('.quick-input-list .monaco-list-row.focused').waitFor({ state: 'visible' });
}

/** Run a palette entry: a command (`>Title`) or a file name (quick open). */
async function run(page, text) {
  await palette(page, text);
  await page.keyboard.press('Enter');
}

async function statusBarPosition(page) {
  return (await page.locator('.statusbar-item[id="status.editor.selection"]').innerText()).trim();
}

/**
 * Put the cursor of the editor on `line`:`column` (1-based) with Ctrl+G and wait for the status bar to say so.
 * When the quick input does not come up or closes at once (the key went to a webview, or a hover took the focus),
 * the editor showing `file` is focused by a click on its text and the key pressed again; `log` says so.
 */
async function goToLine(page, line, column, file, log = () => {}) {
  const input = page.locator(QUICK_INPUT);
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Control+G');
    try {
      await input.waitFor({ state: 'visible', timeout: 3000 });
      await input.fill(`:${line}:${column}`, { timeout: 3000 });
      await page.keyboard.press('Enter');
      await page.waitForFunction((want) => {
        const s = document.querySelector('.statusbar-item[id="status.editor.selection"]');
        return s && s.textContent.startsWith(want);
      }, `Ln ${line}, Col ${column}`, { timeout: 3000 });
      return;
    } catch (err) {
      const focused = await page.evaluate(() => {
        const a = document.activeElement;
        return a ? `${a.tagName.toLowerCase()}.${[...a.classList].join('.')}` : 'nothing';
      });
      log(`go to ${line}:${column}, try ${attempt}: ${err.message.split('\n')[0]} (focus on ${focused})`);
      if (attempt === 3) throw err;
    }
    await page.keyboard.press('Escape');
    // a hover left by the mouse (a tab's tooltip) covers the editor's top: move away, then click the text's middle
    await page.mouse.move(5, 5);
    // Monaco marks each editor's element with its model's URI
    const editor = page.locator(file ? `.monaco-editor[data-uri$="${file}"] .view-lines` : '.monaco-editor .view-lines').first();
    const box = await editor.boundingBox();
    await editor.click({ position: { x: Math.min(40, box.width / 2), y: box.height / 2 } });
  }
}

/** Switch the colour theme from the palette and wait for the workbench to wear it (`cls`: its body class). */
async function colorTheme(page, name, cls) {
  await palette(page, '>Preferences: Color Theme');
  await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: 'Preferences: Color Theme' }).filter({ hasNotText: 'Marketplace' }).first().click();
  await page.locator(QUICK_INPUT).fill(name);
  await page.locator(`.quick-input-list .monaco-list-row.focused:has-text("${name}")`).waitFor({ state: 'visible' });
  await page.keyboard.press('Enter');
  await page.locator(`.monaco-workbench.${cls}`).waitFor({ state: 'attached', timeout: 10000 });
  await page.waitForTimeout(500); // the webview takes the new theme variables a moment later
}

module.exports = { colorTheme, palette, run, goToLine, statusBarPosition };
