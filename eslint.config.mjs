// Lint: typescript-eslint's type-checked recommended rules, plus the two boundaries of the code base that a
// reviewer cannot keep by eye: the core stays editor- and Node-free, and everything else enters it by its index.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

// Node's own modules by exact name (a pattern would also match the core's own './util' or './stream'); any
// `node:` specifier is caught by a regex below.
const nodeBuiltins = builtinModules.filter((m) => !m.startsWith('_') && !m.startsWith('node:'));
const noNode = 'No Node built-ins in src/core (it runs in a browser worker): Node-only code lives in src/cli or src/extension.';

// Globals of the Node scripts under test/ (plain JS: no type information, no tsc to catch a typo).
const nodeGlobals = Object.fromEntries(
  ['require', 'module', 'exports', '__dirname', '__filename', 'process', 'console', 'Buffer', 'URL', 'TextEncoder',
    'TextDecoder', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'queueMicrotask',
    'structuredClone', 'fetch', 'AbortController', 'globalThis'].map((g) => [g, 'readonly']),
);
// What the UI scripts' page.evaluate() callbacks see: they run in the workbench page.
const pageGlobals = Object.fromEntries(['document', 'window', 'getComputedStyle', 'HTMLElement', 'KeyboardEvent',
  'MouseEvent', 'Event', 'navigator', 'location'].map((g) => [g, 'readonly']));

export default defineConfig(
  { ignores: ['out/**', 'dist/**', '**/node_modules/**', '.vscode-test/**', '.test-output/**', '.bench/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_name` marks what is there on purpose but unread: a parameter a signature needs, a key taken out of a
      // rest destructuring (`const { model: _model, ...rest } = r`).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // An `async` function without `await` is how this code hands a promise to an API that asks for one (quick-pick
      // items, webview serializers, sinks); no-floating-promises and no-misused-promises catch the real mistakes.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [
          { name: 'vscode', message: 'src/core never imports the editor API: it runs in Node and a browser worker too.' },
          ...nodeBuiltins.map((name) => ({ name, message: noNode })),
        ],
        patterns: [{ regex: '^node:', message: noNode }],
      }],
    },
  },
  {
    files: ['src/cli/**/*.ts', 'src/extension/**/*.ts', 'src/webview/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ regex: '^(\\.\\./)+core/', message: "Import the core through its index ('../core'): src/core/index.ts is its one entry point." }],
      }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Tests read JSON.parse output (the CLI's JSON, fixture files, package.json) and assert on it: the `any`
      // there is the data under test, and a wrong path fails the assertion, which is what a type would catch.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // A test that patches a Node module's exports needs the CommonJS object (an ES namespace is read-only).
      '@typescript-eslint/no-require-imports': ['error', { allow: ['^node:'] }],
      // node:test's test() / describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': ['error', {
        allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }],
      }],
    },
  },
  {
    // A suite's entry loads its test files with require(), in order, after mocha has defined describe/it.
    files: ['test/vscode/*/index.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Plain Node scripts (build, harness, UI scripts, bench, fuzz): no type information to check against.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { sourceType: 'commonjs', globals: { ...nodeGlobals, ...pageGlobals } },
    rules: {
      // CommonJS scripts load their modules with require().
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { sourceType: 'module' },
  },
);
