// Static guards on the decision table page: trace strings only ever become text, colours only come from the theme,
// and the page's HTML is static (a CSP of default-src 'none' with a per-load nonce, no data in it).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ROOT } from './helpers';

const read = (rel: string) => readFileSync(path.join(ROOT, rel), 'utf8');
const code = (text: string) => text.replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');

describe('decision table page', () => {
  it('never turns a string into markup', () => {
    const page = code(read('src/webview/table.ts'));
    for (const sink of ['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'document.write', 'eval(', 'new Function', 'setAttribute(\'style\'', '.href =', 'srcdoc']) {
      assert.ok(!page.includes(sink), `src/webview/table.ts uses ${sink}`);
    }
    assert.match(page, /textContent = text/);
  });

  it('takes every colour from a --vscode-* variable', () => {
    const css = code(read('media/table.css'));
    assert.doesNotMatch(css, /#[0-9a-f]{3,8}\b|\brgba?\(|\bhsla?\(/i);
    const colours = [...css.matchAll(/(?:^|[;{\s])(color|background(?:-color)?|border(?:-(?:top|bottom|left|right))?|outline|text-decoration)\s*:\s*([^;]+);/g)];
    assert.ok(colours.length > 20);
    for (const [, prop, value] of colours) {
      const named = value.replace(/var\(--vscode-[A-Za-z0-9.-]+(?:,[^()]*(?:\([^()]*\))?[^()]*)?\)/g, '').replace(/\b(none|inherit|transparent|solid|dashed|wavy|underline|\d+px|0)\b/g, '').trim();
      assert.equal(named, '', `${prop}: ${value}`);
    }
  });

  it('loads a static page under a strict CSP with a fresh nonce', () => {
    const panel = read('src/extension/table/panel.ts');
    assert.match(panel, /default-src 'none'; style-src \$\{webview\.cspSource\}; script-src 'nonce-\$\{n\}'/);
    assert.match(panel, /const n = nonce\(\);/, 'a nonce per load');
    assert.match(panel, /crypto\.getRandomValues/);
    const html = panel.slice(panel.indexOf('return `<!DOCTYPE html>'), panel.indexOf('</html>`'));
    const interpolated = [...html.matchAll(/\$\{([^}]+)\}/g)].map((m) => m[1]).sort();
    assert.deepEqual([...new Set(interpolated)], ['csp', 'n', 'script', 'style'], 'only the CSP, the nonce and the two asset URIs');
    assert.match(panel, /localResourceRoots: \[vscode\.Uri\.joinPath\(deps\.extensionUri, 'dist', 'webview'\), vscode\.Uri\.joinPath\(deps\.extensionUri, 'media'\)\]/);
  });
});
