// Editor benchmark, run inside the extension host: `npm run bench:vscode`.
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 300000, reporter: 'spec' });
  // --grep of the harness: one bench alone
  const grep = process.env.CONTRACT_GUARD_GREP;
  if (grep) mocha.grep(grep);
  mocha.suite.emit('pre-require', globalThis, 'contract-guard-bench', mocha);
  require('./bench.test');
  require('./navigation.bench');
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures ? reject(new Error(`${failures} test(s) failed`)) : resolve()));
  });
}
