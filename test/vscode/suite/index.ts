// Entry point VS Code's extension host loads for the in-host suite (`extensionTestsPath`).
// The suite files are bundled in by esbuild (test/vscode/build.js); mocha stays a real `require`.
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30000, reporter: 'spec' });
  const grep = process.env.CONTRACT_GUARD_GREP;
  if (grep) mocha.grep(grep);
  // Define describe/it before the suite files run, then load them in order.
  mocha.suite.emit('pre-require', globalThis, 'contract-guard-suite', mocha);
  require('./smoke.test');
  require('./workspace.test');
  require('./diagnostics.test');
  require('./contracts.test');
  require('./hover.test');
  require('./incremental.test');
  require('./append.test');
  require('./virtual.test');
  require('./large.test');
  require('./fixtures.test');
  require('./adoption.test');
  require('./eval.test');
  require('./reading.test');
  require('./compare.test');
  require('./navigation.test');
  require('./recording.test');
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures ? reject(new Error(`${failures} test(s) failed`)) : resolve()));
  });
}
