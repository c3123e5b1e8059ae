// Logs that frame each JSON message in a line of text. Claude Desktop's MCP logs (`mcp.log`,
// `mcp-server-<name>.log`) write every line as `<ISO time> [<server>] [<level>] <text>`, and each JSON-RPC
// message it exchanged as `… Message from client: <JSON>` or `… Message from server: <JSON>`, often followed by
// ` { metadata: undefined }`. The host's other lines, the server's stderr and the continuation lines of a
// multi-line message are the log's own text: once a file is such a log, a line that is not JSON is not an error.

/** A line of such a log (its time, server and level). */
export const LOG_LINE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z \[[^\]\n]*\] \[(?:info|warn|warning|error|debug|trace)\] /;

const MESSAGE = /^\S+ \[[^\]\n]*\] \[\w+\] Message from (?:client|server)(?: \([^)\n]*\))?: (?=[{[])/;
// starts only where a run of blanks starts: `\s+` tried at every blank of a long run would backtrack quadratically
const TRAILER = /(?<!\s)\s+\{ metadata: undefined \}\s*$/;

/** Where the JSON message of a log line is (`start`, `end` offsets in the line), if it logs one. */
export function loggedMessage(line: string): { start: number; end: number } | undefined {
  const m = MESSAGE.exec(line);
  if (!m) return undefined;
  const t = TRAILER.exec(line);
  return { start: m[0].length, end: t ? t.index : line.length };
}
