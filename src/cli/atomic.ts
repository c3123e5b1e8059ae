// Writing a report or a baseline in place: a temporary file in the same folder, then a rename over the target,
// so that a reader (CI uploading a SARIF file, a second run) sees the old file or the new one, never half of one.
import { promises as fs, rmSync } from 'node:fs';
import * as path from 'node:path';
import { removeProcessSpools } from './spool';

/** Temporary files this process made for writes in place: a run stopped by a signal removes those left over. */
const temporaries = new Set<string>();

/** On SIGINT or SIGTERM: no temporary file is left behind (writes in place, spools of findings), and the process
 *  ends as the signal would have ended it (128 + the signal's number). */
let onSignal = false;

export function leaveNoTemporariesOnSignal(): void {
  if (onSignal) return; // once a process, however many checks it runs
  onSignal = true;
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    process.once(signal, () => {
      for (const file of temporaries) rmSync(file, { force: true });
      removeProcessSpools();
      process.exit(code);
    });
  }
}

/** The temporary file a write of `file` goes to before its rename (same folder, so the rename is atomic). */
export function tempPathFor(file: string): string {
  const dir = path.dirname(path.resolve(file));
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  temporaries.add(tmp);
  return tmp;
}

export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const tmp = tempPathFor(file);
  try {
    await fs.writeFile(tmp, text, { flag: 'wx' });
    await fs.rename(tmp, file);
  } finally {
    await fs.rm(tmp, { force: true });
  }
}
