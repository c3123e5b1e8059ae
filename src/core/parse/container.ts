// Binary trace containers. An Inspect AI `.eval` file is a zip of `header.json`, `samples/*.json` and summaries;
// its members are joined into one JSON text `{"header": ..., "samples": [...]}` (members byte for byte, in zip
// order), which is what the checker reads and what positions refer to (the editor shows it read-only).
import { unzipSync } from 'fflate';

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && ZIP_MAGIC.every((b, i) => bytes[i] === b);
}

/** The text to check for a container, or undefined when the bytes are not one (or not one this reader knows). */
export function containerText(bytes: Uint8Array): string | undefined {
  if (!isZip(bytes)) return undefined;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: (f) => f.name === 'header.json' || /^samples\/[^/]+\.json$/.test(f.name) });
  } catch {
    return undefined;
  }
  const decoder = new TextDecoder('utf-8');
  const header = files['header.json'];
  const samples = Object.keys(files).filter((n) => n.startsWith('samples/')).sort(bySampleName);
  if (!header && samples.length === 0) return undefined;
  const parts = samples.map((n) => decoder.decode(files[n]).trim());
  return `{"header": ${header ? decoder.decode(header).trim() : 'null'},\n"samples": [\n${parts.join(',\n')}\n]}\n`;
}

/** `samples/<id>_epoch_<n>.json` in id, then epoch order (numerically where they are numbers). */
function bySampleName(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}
