// Decoders the core has no pure-JS copy of, or a slower one, taken from the Node running it (the CLI, its threads,
// the extension host). Inspect AI writes the members of its `.eval` zips zstd-compressed: fflate cannot inflate
// zstd (the core falls back to fzstd), Node's zlib can from 22.15 on. VCR.py cassettes keep `Content-Encoding: br`
// bodies as `!!binary`: Brotli only Node's zlib decodes. Elsewhere (VS Code for the Web: no `process`, so no static
// `node:zlib` import here) the core does without: zstd by fzstd, Brotli bodies unread.
import { useBrotli, useZstd } from '../core';

type Inflate = (raw: Uint8Array, options: { maxOutputLength: number }) => Uint8Array;
type Zlib = { zstdDecompressSync?: Inflate; brotliDecompressSync?: Inflate };
const host = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
const zlib = host?.getBuiltinModule?.('node:zlib') as Zlib | undefined;
const zstd = zlib?.zstdDecompressSync;
if (typeof zstd === 'function') useZstd((raw, max) => zstd(raw, { maxOutputLength: max }));
const brotli = zlib?.brotliDecompressSync;
if (typeof brotli === 'function') useBrotli((raw, max) => brotli(raw, { maxOutputLength: max }));
