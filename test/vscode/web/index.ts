// Entry point for the suite in the browser's web-worker extension host (no Node: mocha's browser build).
import 'mocha/mocha';

declare const mocha: BrowserMocha;
interface BrowserMocha {
  setup(options: { ui: string; reporter?: string; timeout: number; color?: boolean }): void;
  run(done: (failures: number) => void): void;
}

export function run(): Promise<void> {
  mocha.setup({ ui: 'bdd', reporter: 'spec', timeout: 30000, color: false });
  require('./web.test');
  require('./fixtures.web.test');
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures ? reject(new Error(`${failures} test(s) failed`)) : resolve()));
  });
}
