// Inspect AI writes the members of its `.eval` zips zstd-compressed; fflate (the core's unzip) cannot inflate
// zstd, Node's zlib can from 22.15 on. Importing this module hands that decoder to the core where the Node running
// it has one (the CLI, the extension host); elsewhere (an older Node, VS Code for the Web: no `process`, so no
// static `node:zlib` import here) those members stay a one-line parse error.
import { useZstd } from '../core';

type Zlib = { zstdDecompressSync?: (raw: Uint8Array, options: { maxOutputLength: number }) => Uint8Array };
const host = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
const decode = (host?.getBuiltinModule?.('node:zlib') as Zlib | undefined)?.zstdDecompressSync;
if (typeof decode === 'function') useZstd((raw, max) => decode(raw, { maxOutputLength: max }));
