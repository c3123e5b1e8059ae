// A tool's contract, wherever it came from: a workspace file in any of the four accepted forms, or a tool
// definition embedded in the trace.

export interface ArgumentSource {
  tool: string;
  field?: string;
}

export interface ToolContract {
  name: string;
  /** JSON Schema of the arguments; undefined means any arguments. */
  arguments?: unknown;
  result?: unknown;
  volatile?: boolean;
  mutates?: boolean | string;
  /** A repeat with the same arguments changes nothing more (MCP `idempotentHint`). */
  idempotent?: boolean;
  envelope?: boolean;
  okExitCodes?: number[];
  argumentSources?: Record<string, ArgumentSource>;
  /** The file it came from (a workspace contract), and the JSON path of its definition there. */
  file?: string;
  pointer?: string;
}

export interface ContractSet {
  tools: Map<string, ToolContract>;
  /** True when some file lists its tools exhaustively (not `partial`): unlisted tools are unknown-tool. */
  closed: boolean;
  files: string[];
}

export function emptyContracts(): ContractSet {
  return { tools: new Map(), closed: false, files: [] };
}
