// A built-in contract pack: the tool contracts of one well-known agent (or MCP server), written from that
// project's public source and documentation, with the version they describe. A pack is always partial: tools it
// does not list get `no-contract`, never `unknown-tool`. Workspace contracts and definitions embedded in the
// trace win over it, tool by tool.
import type { ToolContract } from '../types';

export interface PackTool {
  /** JSON Schema of the arguments. */
  arguments: unknown;
  result?: unknown;
  /** true for shell tools; the argument naming the artifact for editors; false for tools that only read. */
  mutates?: boolean | string;
  /** Repeats are expected (polls, scrolling). */
  volatile?: boolean;
}

export interface ContractPack {
  /** Stable id, used by the `packs` option (`--no-packs`, config `packs`). */
  id: string;
  title: string;
  /** What the schemas were written from: project, version range, and where in its source. */
  describes: { project: string; version: string; source: string; commit?: string };
  /** Text-action agents run any command they do not define as a shell command line: calls with free-form
   *  arguments to a tool the pack does not list get this contract (checked as shell commands, mutating). */
  commandFallback?: boolean;
  /** An MCP server pack: the server name agents usually give it. Agents that name MCP tools
   *  `mcp__<server>__<tool>` (Claude Code, Codex) get its tools under that name too. */
  mcpServer?: string;
  /** This agent names MCP tools `mcp__<server>__<tool>`: the MCP server packs apply under those names. */
  mcpPrefix?: boolean;
  tools: Record<string, PackTool>;
}

/** The contracts of the packs that apply to one session. */
export interface PackContracts {
  tools: ReadonlyMap<string, ToolContract>;
  /** Contract for free-form command lines (text-action agents), when a pack declares them. */
  command?: ToolContract;
  /** The ids of the packs. */
  ids: readonly string[];
}

type Schema = Record<string, unknown>;

/** An object schema with the given properties, required keys, and no other keys. */
export function obj(properties: Record<string, Schema>, required: string[] = []): Schema {
  const s: Schema = { type: 'object', properties, additionalProperties: false };
  if (required.length) s.required = required;
  return s;
}

export const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
export const num = (extra: Schema = {}): Schema => ({ type: 'number', ...extra });
export const int = (extra: Schema = {}): Schema => ({ type: 'integer', ...extra });
export const bool = (): Schema => ({ type: 'boolean' });
export const arr = (items: Schema, extra: Schema = {}): Schema => ({ type: 'array', items, ...extra });
export const oneOfStr = (values: string[]): Schema => ({ type: 'string', enum: values });
