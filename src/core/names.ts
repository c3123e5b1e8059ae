// What a file's name says, for the places that judge files before reading them: the CLI's folder walk, the
// editor's compare and the readers' tie-break. One home, so they take the same files.

/** Names that say "one JSON value per line": such a file is read line by line even when it has one line. */
export const JSONL_NAME = /\.(jsonl|ndjson|jsonlines)$/i;

/** Names a walk of folders takes as traces: JSON Lines, JSON, SWE-agent `.traj`, Inspect `.eval`, Letta `.af`, HAR
 *  recordings (`.har`: browser devtools, Polly.js), and `raw_transcript`, the agent's own transcript an Entire
 *  checkpoint keeps without an extension. (A file named explicitly is read whatever its name; a `.gz` is judged by
 *  the name inside it.) */
export const TRACE_NAME = /(\.(jsonl|ndjson|jsonlines|json|traj|eval|af|har)|(^|[\\/])raw_transcript)$/i;

/** Plain-text names a walk takes only when their head reads like a trace (`traceTextHead`): logs an agent or a host
 *  writes (Claude Desktop's `mcp*.log`, a program's stdout saved as `.log` or `.txt`). */
export const TEXT_LOG_NAME = /\.(log|txt)$/i;

const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'out', '.vscode-test']);

/** Whether a walk of traces passes a folder by: build and dependency folders, and hidden ones. */
export function walkSkips(folder: string): boolean {
  return SKIP_DIRS.has(folder) || folder.startsWith('.');
}
