// Writing a report or a baseline in place: a temporary file in the same folder, then a rename over the target,
// so that a reader (CI uploading a SARIF file, a second run) sees the old file or the new one, never half of one.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** The temporary file a write of `file` goes to before its rename (same folder, so the rename is atomic). */
export function tempPathFor(file: string): string {
  const dir = path.dirname(path.resolve(file));
  return path.join(dir, `.${path.basename(file)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
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
