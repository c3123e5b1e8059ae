// What an MCP tool definition says about its effects: `annotations.readOnlyHint`, `destructiveHint` and
// `idempotentHint` (MCP `ToolAnnotations`). One home for reading them, used by the MCP trace reader (tools/list
// recorded in a trace) and by the contract loader (a tools/list result as a workspace contract file).
//
// The spec's defaults (readOnlyHint false, destructiveHint true, idempotentHint false) are not applied: a tool that
// states nothing keeps Contract Guard's name rule (checks/mutation.ts), so only what a server actually wrote counts.
// - readOnlyHint: true  -> does not mutate (whatever its name says).
// - readOnlyHint: false -> mutates.
// - destructiveHint or idempotentHint without readOnlyHint -> mutates: both are meaningful only for a tool that is
//   not read-only, so stating either says the tool changes its environment (destructiveHint: false is an
//   additive update, still a change).
// - idempotentHint: true on a mutating tool -> a repeat with the same arguments changes nothing more.
import type { ToolBehaviour } from '../model';
import { isPlainObject } from '../objects';

/** The behaviour an MCP tool definition's `annotations` state, or undefined when they state none. */
export function behaviourOf(annotations: unknown): ToolBehaviour | undefined {
  if (!isPlainObject(annotations)) return undefined;
  const { readOnlyHint: readOnly, destructiveHint: destructive, idempotentHint: idempotent } = annotations;
  let mutates: boolean | undefined;
  if (typeof readOnly === 'boolean') mutates = !readOnly;
  else if (typeof destructive === 'boolean' || typeof idempotent === 'boolean') mutates = true;
  if (mutates === undefined) return undefined;
  return mutates && idempotent === true ? { mutates, idempotent: true } : { mutates };
}
