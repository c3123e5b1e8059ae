// Smoke suite for the packaged extension: run with `run.js --vsix contract-guard.vsix`, where the .vsix is installed
// into the server and the development extension is only a do-nothing runner.
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30000, reporter: 'spec' });
  mocha.suite.emit('pre-require', globalThis, 'contract-guard-vsix', mocha);
  require('./vsix.test');
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures ? reject(new Error(`${failures} test(s) failed`)) : resolve()));
  });
}
