// OpenAI Codex CLI's built-in tools. Written from codex-rs/core/src/tools/spec.rs (openai/codex, commit
// b8a1c8f8c4671c9a534eede7f32f11f5c9a5f938, the 0.9x Rust CLI) and the Responses API `local_shell_call` item.
// Codex declares numbers as "number" and closes every object (additionalProperties false); the approval fields
// (sandbox_permissions, justification, prefix_rule) and the older with_escalated_permissions are all accepted, and
// so is `shell`'s `timeout`, its name before `timeout_ms` (codex-rs of mid-2025, core/src/client.rs DEFAULT_TOOLS).
// apply_patch is usually a free-form (custom) tool whose input is the patch text: such calls are not JSON and
// are not checked; the function variant takes {input}.
import { arr, bool, num, obj, oneOfStr, str, type ContractPack } from './types';

const approval = { sandbox_permissions: str(), justification: str(), prefix_rule: arr(str()), with_escalated_permissions: bool() };

export const codexPack: ContractPack = {
  id: 'codex',
  title: 'Codex CLI',
  mcpPrefix: true,
  describes: {
    project: 'OpenAI Codex CLI (openai/codex, codex-rs)',
    version: '0.9x (Rust CLI)',
    source: 'codex-rs/core/src/tools/spec.rs',
    commit: 'b8a1c8f8c4671c9a534eede7f32f11f5c9a5f938',
  },
  tools: {
    shell: { arguments: obj({ command: arr(str()), workdir: str(), timeout_ms: num(), timeout: num(), ...approval }, ['command']), mutates: true },
    shell_command: { arguments: obj({ command: str(), workdir: str(), login: bool(), timeout_ms: num(), ...approval }, ['command']), mutates: true },
    exec_command: {
      arguments: obj({ cmd: str(), workdir: str(), shell: str(), login: bool(), tty: bool(), yield_time_ms: num(), max_output_tokens: num(), ...approval }, ['cmd']),
      mutates: true,
    },
    write_stdin: { arguments: obj({ session_id: num(), chars: str(), yield_time_ms: num(), max_output_tokens: num() }, ['session_id']), mutates: true, volatile: true },
    local_shell_call: {
      arguments: obj({ type: oneOfStr(['exec']), command: arr(str()), timeout_ms: num(), working_directory: str(), env: { type: 'object', additionalProperties: { type: 'string' } }, user: str() }, ['type', 'command']),
      mutates: true,
    },
    apply_patch: { arguments: obj({ input: str() }, ['input']), mutates: true },
    // what `codex exec --json` (codex-rs/exec/src/exec_events.rs) reports in place of the model's tool: a command
    // line (free-form text) and the files a patch changed
    command_execution: { arguments: str(), mutates: true },
    // (read as `{changes}`: the exec stream's list, the app-server's list with `kind: {type, move_path}` and `diff`
    // (`movePath` where a build renames the update variant's fields too), or the older exec stream's map of path ->
    // {add | delete | update})
    file_change: {
      arguments: obj({
        changes: {
          anyOf: [
            arr(obj({ path: str(), kind: oneOfStr(['add', 'delete', 'update']) }, ['path', 'kind'])),
            arr(obj({ path: str(), kind: obj({ type: oneOfStr(['add', 'delete', 'update']), move_path: { type: ['string', 'null'] }, movePath: { type: ['string', 'null'] } }, ['type']), diff: str() }, ['path', 'kind'])),
            { type: 'object', additionalProperties: { type: 'object' } },
          ],
        },
      }, ['changes']),
      mutates: true,
    },
    update_plan: {
      arguments: obj({ explanation: str(), plan: arr(obj({ step: str(), status: oneOfStr(['pending', 'in_progress', 'completed']) }, ['step', 'status'])) }, ['plan']),
      mutates: false,
    },
    view_image: { arguments: obj({ path: str() }, ['path']), mutates: false },
    // the hosted search (a Responses `web_search_call`): its `action` is what it did; older rollouts record none
    web_search: {
      arguments: obj({ type: oneOfStr(['search', 'open_page', 'find']), query: str(), queries: arr(str()), url: str(), pattern: str(), sources: { type: 'array' } }, []),
      mutates: false,
    },
  },
};
