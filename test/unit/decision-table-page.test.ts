// Static guards on the webview pages (the decision table, the compare): trace strings only ever become text, colours
// only come from the theme, and each page's HTML is static (a CSP of default-src 'none' with a per-load nonce, no data
// in it; webviewHtml.ts builds it for both panels).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ROOT } from './helpers';

const read = (rel: string) => readFileSync(path.join(ROOT, rel), 'utf8');
const code = (text: string) => text.replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');

const PAGES = [
  { script: 'src/webview/table.ts', css: 'media/table.css', panel: 'src/extension/table/panel.ts' },
  { script: 'src/webview/compare.ts', css: 'media/compare.css', panel: 'src/extension/compare/panel.ts' },
];

describe('webview pages', () => {
  it('never turn a string into markup', () => {
    for (const file of [...PAGES.map((p) => p.script), 'src/webview/dom.ts']) {
      const page = code(read(file));
      for (const sink of ['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'document.write', 'eval(', 'new Function', 'setAttribute(\'style\'', '.href =', 'srcdoc']) {
        assert.ok(!page.includes(sink), `${file} uses ${sink}`);
      }
    }
    assert.match(code(read('src/webview/dom.ts')), /textContent = text/);
    for (const p of PAGES) assert.match(read(p.script), /import \{ \$, el \} from '\.\/dom';/, `${p.script} builds its DOM with dom.ts`);
  });

  it('take every colour from a --vscode-* variable', () => {
    for (const file of [...PAGES.map((p) => p.css), 'media/webview.css']) {
      const css = code(read(file));
      assert.doesNotMatch(css, /#[0-9a-f]{3,8}\b|\brgba?\(|\bhsla?\(/i, file);
      const colours = [...css.matchAll(/(?:^|[;{\s])(color|background(?:-color)?|border(?:-(?:top|bottom|left|right))?|outline|text-decoration)\s*:\s*([^;]+);/g)];
      assert.ok(colours.length > (file === 'media/webview.css' ? 3 : 20), file);
      for (const [, prop, value] of colours) {
        const named = value.replace(/var\(--vscode-[A-Za-z0-9.-]+(?:,[^()]*(?:\([^()]*\))?[^()]*)?\)/g, '').replace(/\b(none|inherit|transparent|solid|dashed|wavy|underline|line-through|\d+px|0)\b/g, '').trim();
        assert.equal(named, '', `${file}: ${prop}: ${value}`);
      }
    }
  });

  it('load a static page under a strict CSP with a fresh nonce', () => {
    const html = read('src/extension/webviewHtml.ts');
    assert.match(html, /default-src 'none'; style-src \$\{webview\.cspSource\}; script-src 'nonce-\$\{nonce\}'/);
    assert.match(html, /const nonce = crypto\.randomUUID\(\)/, 'a nonce per load');
    const doc = html.slice(html.indexOf('return `<!DOCTYPE html>'), html.indexOf('</html>`'));
    const interpolated = [...doc.matchAll(/\$\{([^}]+)\}/g)].map((m) => m[1]).sort();
    assert.deepEqual([...new Set(interpolated)], ['csp', 'links', 'nonce', 'page.body', 'page.title', 'script.toString()'], 'only the CSP, the nonce, the asset URIs and the caller\'s static parts');
    for (const p of PAGES) {
      const panel = read(p.panel);
      const call = panel.slice(panel.indexOf('return webviewHtml('), panel.indexOf('` });', panel.indexOf('return webviewHtml(')));
      assert.ok(call.includes('body: `'), `${p.panel} passes its body as one literal`);
      assert.ok(!call.includes('${'), `${p.panel}: nothing is interpolated into the page`);
      assert.match(panel, /localResourceRoots: \[vscode\.Uri\.joinPath\(deps\.extensionUri, 'dist', 'webview'\), vscode\.Uri\.joinPath\(deps\.extensionUri, 'media'\)\]/);
    }
  });
});
