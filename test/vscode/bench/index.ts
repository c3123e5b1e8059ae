// Editor benchmark, run inside the extension host: `npm run bench:vscode`.
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 300000, reporter: 'spec' });
  mocha.suite.emit('pre-require', globalThis, 'contract-guard-bench', mocha);
  require('./bench.test');
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures ? reject(new Error(`${failures} test(s) failed`)) : resolve()));
  });
}
