// The one list of built-in contract packs, and the contracts a session gets from the packs its format names.
// A format adapter says which packs apply to its traces (`FormatAdapter.packs`): a Claude Code log gets the
// Claude Code pack, an MCP log the MCP reference servers.
import type { ToolContract } from '../types';
import { claudeCodePack } from './claude-code';
import { codexPack } from './codex';
import { mcpFetchPack, mcpFilesystemPack, mcpGitPack } from './mcp';
import { openhandsPack } from './openhands';
import { sweAgentPack } from './swe-agent';
import type { ContractPack, PackContracts } from './types';

export const PACKS: readonly ContractPack[] = [claudeCodePack, codexPack, openhandsPack, sweAgentPack, mcpFilesystemPack, mcpFetchPack, mcpGitPack];

/** Which packs are on: all (true, the default), none (false), or those listed by id. */
export type PackSelection = boolean | readonly string[];

export function packById(id: string): ContractPack | undefined {
  return PACKS.find((p) => p.id === id);
}

const COMMAND: Omit<ToolContract, 'name'> = { mutates: true, file: 'pack:command' };
const cache = new Map<string, PackContracts | undefined>();

/** The contracts of the given packs (minus those the selection turns off); undefined when none is left. */
export function packContracts(ids: readonly string[] | undefined, selection: PackSelection = true): PackContracts | undefined {
  if (!ids?.length || selection === false) return undefined;
  const on = selection === true ? ids : ids.filter((id) => selection.includes(id));
  const key = on.join('\u0000') + '|' + (selection === true ? '*' : selection.join('\u0000'));
  if (cache.has(key)) return cache.get(key);
  const tools = new Map<string, ToolContract>();
  let command: ToolContract | undefined;
  for (const id of on) {
    const pack = packById(id);
    if (!pack) continue;
    for (const [name, t] of Object.entries(pack.tools)) {
      if (tools.has(name)) continue;
      tools.set(name, { name, arguments: t.arguments, result: t.result, mutates: t.mutates, volatile: t.volatile, file: `pack:${pack.id}`, pointer: `/tools/${name}` });
    }
    if (pack.commandFallback) command ??= { name: '', ...COMMAND };
    // `mcp__filesystem__read_file`: the reference MCP servers under the name agents usually give them.
    if (pack.mcpPrefix) {
      for (const server of PACKS) {
        if (!server.mcpServer || (selection !== true && !selection.includes(server.id))) continue;
        for (const [name, t] of Object.entries(server.tools)) {
          const full = `mcp__${server.mcpServer}__${name}`;
          if (!tools.has(full)) tools.set(full, { name: full, arguments: t.arguments, result: t.result, mutates: t.mutates, volatile: t.volatile, file: `pack:${server.id}`, pointer: `/tools/${name}` });
        }
      }
    }
  }
  const result = tools.size || command ? { tools, command, ids: on } : undefined;
  cache.set(key, result);
  return result;
}

export type { ContractPack, PackContracts, PackTool } from './types';
