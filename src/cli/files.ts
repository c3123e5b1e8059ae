// Finding files on disk: trace files under folders, and contract files named by --contracts.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { looksLikeCassette, matchesGlob, TEXT_LOG_NAME, TRACE_NAME, traceTextHead, walkSkips, YAML_NAME } from '../core';
import { fileBytes } from './stream';

const CONTRACT_EXT = /\.(json|jsonc)$/i;

export class UsageError extends Error {}

/** Files under `root` that `accept` takes (a file named explicitly is always taken), in a stable order; build,
 *  dependency and hidden folders are skipped. */
export async function walk(root: string, accept: (p: string) => boolean, out: string[]): Promise<void> {
  let stat;
  try {
    stat = await fs.stat(root);
  } catch {
    throw new UsageError(`${root}: no such file or folder`);
  }
  if (stat.isFile()) {
    out.push(root);
    return;
  }
  const entries = await fs.readdir(root, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const p = path.join(root, e.name);
    if (e.isDirectory()) {
      if (!walkSkips(e.name)) await walk(p, accept, out);
    } else if (e.isFile() && accept(p)) {
      out.push(p);
    }
  }
}

/** The first 16 KB of a file's text (of what a `.gz` holds), or '' when it cannot be read. */
async function headText(file: string): Promise<string> {
  const max = 1 << 14;
  const chunks: Buffer[] = [];
  let got = 0;
  try {
    // the one home of a file's bytes (a `.gz` through zlib; stopping early closes the file)
    for await (const bytes of fileBytes(file, /\.gz$/i.test(file))) {
      chunks.push(Buffer.from(bytes)); // a copy: fileBytes reuses its buffer
      got += bytes.length;
      if (got >= max) break;
    }
  } catch {
    return '';
  }
  return Buffer.concat(chunks).subarray(0, max).toString('utf8');
}

/** Trace files under the given paths (files named explicitly are always taken), minus contract files. A folder's
 *  YAML files are taken only when their head is a recorded HTTP cassette's (core looksLikeCassette), `.log` and
 *  `.txt` files only when theirs reads like a trace (core traceTextHead). */
export async function findTraceFiles(paths: string[], exclude: Set<string>): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const found: string[] = [];
    const byHead = (f: string) => YAML_NAME.test(f.replace(/\.gz$/i, '')) || TEXT_LOG_NAME.test(f.replace(/\.gz$/i, ''));
    await walk(p, (f) => (TRACE_NAME.test(f.replace(/\.gz$/i, '')) && !/\.contract\.jsonc?$/i.test(f) && !/\.(fixture|config)\.json$/i.test(f)) || byHead(f), found);
    for (const f of found) {
      if (f === p || !byHead(f)) out.push(f);
      else if (YAML_NAME.test(f.replace(/\.gz$/i, '')) ? looksLikeCassette(await headText(f)) : traceTextHead(await headText(f))) out.push(f);
    }
  }
  return [...new Set(out.map((f) => path.resolve(f)))].filter((f) => !exclude.has(f));
}

export async function findContractFiles(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  // A frozen fixture (*.fixture.json) is not a contract, even inside a folder of contracts.
  for (const p of paths) await walk(p, (f) => CONTRACT_EXT.test(f) && !/\.fixture\.json$/i.test(f), out);
  return [...new Set(out.map((f) => path.resolve(f)))];
}

/** A path as shown in reports: relative to the working folder, with forward slashes. */
export function displayPath(file: string): string {
  const rel = path.relative(process.cwd(), file) || file;
  return rel.split(path.sep).join('/');
}

const GLOB = /[*?{[]/;

/** Paths with globs expanded (quoted, so the shell leaves them to us): `runs/a/*.jsonl`, `runs/**\/b.json`. A
 *  path that exists is taken as it is; a glob is matched under its folder part, and must match something. */
export async function expandGlobs(given: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of given) {
    const exists = await fs.stat(p).then(() => true, () => false);
    if (exists || !GLOB.test(p)) {
      out.push(p);
      continue;
    }
    const parts = p.replace(/\\/g, '/').split('/');
    const first = parts.findIndex((x) => GLOB.test(x));
    const base = parts.slice(0, first).join('/') || (p.startsWith('/') ? '/' : '.');
    const rest = parts.slice(first).join('/');
    const found: string[] = [];
    // a last part without a slash matches files right under its folder (matchesGlob alone would match any depth)
    const accept = (f: string) => {
      const rel = path.relative(base, f).split(path.sep).join('/');
      return (rest.includes('/') || !rel.includes('/')) && matchesGlob(rel, rest);
    };
    await walk(base, accept, found);
    if (!found.length) throw new UsageError(`${p}: no file matches`);
    out.push(...found);
  }
  return out;
}
