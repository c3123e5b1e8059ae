// Claude Code's built-in tools. Written from the tool input types Anthropic publishes for Claude Code and the
// Claude Agent SDK (`sdk-tools.d.ts`, "Tool Input Types" of the Agent SDK TypeScript reference) for Claude Code
// 1.0.x-2.0.x. Where versions differ the pack accepts both: TodoWrite items are {content, status, activeForm}
// since 2.0 and {id, content, status, priority} before; KillShell was KillBash.
import { arr, bool, num, obj, oneOfStr, str, type ContractPack } from './types';

const todo = obj(
  {
    content: str({ minLength: 1 }),
    status: oneOfStr(['pending', 'in_progress', 'completed']),
    activeForm: str({ minLength: 1 }),
    id: str(),
    priority: oneOfStr(['high', 'medium', 'low']),
  },
  ['content', 'status'],
);

const edit = obj({ old_string: str(), new_string: str(), replace_all: bool() }, ['old_string', 'new_string']);

export const claudeCodePack: ContractPack = {
  id: 'claude-code',
  title: 'Claude Code',
  mcpPrefix: true,
  describes: {
    project: 'Claude Code (@anthropic-ai/claude-code) built-in tools',
    version: '1.0.x-2.0.x',
    source: 'sdk-tools.d.ts tool input types; Claude Agent SDK TypeScript reference, "Tool Input Types"',
  },
  tools: {
    Task: {
      arguments: obj({ description: str(), prompt: str(), subagent_type: str(), model: str(), resume: str(), run_in_background: bool() }, ['description', 'prompt', 'subagent_type']),
    },
    Bash: {
      arguments: obj({ command: str(), timeout: num({ maximum: 600000 }), description: str(), run_in_background: bool(), dangerouslyDisableSandbox: bool() }, ['command']),
      mutates: true,
    },
    BashOutput: { arguments: obj({ bash_id: str(), filter: str() }, ['bash_id']), mutates: false, volatile: true },
    KillShell: { arguments: obj({ shell_id: str() }, ['shell_id']), mutates: true },
    KillBash: { arguments: obj({ shell_id: str() }, ['shell_id']), mutates: true },
    Read: { arguments: obj({ file_path: str(), offset: num(), limit: num(), pages: str() }, ['file_path']), mutates: false },
    Write: { arguments: obj({ file_path: str(), content: str() }, ['file_path', 'content']), mutates: 'file_path' },
    Edit: {
      arguments: obj({ file_path: str(), old_string: str(), new_string: str(), replace_all: bool() }, ['file_path', 'old_string', 'new_string']),
      mutates: 'file_path',
    },
    MultiEdit: { arguments: obj({ file_path: str(), edits: arr(edit, { minItems: 1 }) }, ['file_path', 'edits']), mutates: 'file_path' },
    Glob: { arguments: obj({ pattern: str(), path: str() }, ['pattern']), mutates: false },
    Grep: {
      arguments: obj(
        {
          pattern: str(), path: str(), glob: str(), output_mode: oneOfStr(['content', 'files_with_matches', 'count']),
          '-B': num(), '-A': num(), '-C': num(), '-n': bool(), '-i': bool(), type: str(), head_limit: num(), offset: num(), multiline: bool(),
        },
        ['pattern'],
      ),
      mutates: false,
    },
    LS: { arguments: obj({ path: str(), ignore: arr(str()) }, ['path']), mutates: false },
    NotebookRead: { arguments: obj({ notebook_path: str(), cell_id: str() }, ['notebook_path']), mutates: false },
    NotebookEdit: {
      arguments: obj(
        { notebook_path: str(), cell_id: str(), new_source: str(), cell_type: oneOfStr(['code', 'markdown']), edit_mode: oneOfStr(['replace', 'insert', 'delete']) },
        ['notebook_path', 'new_source'],
      ),
      mutates: 'notebook_path',
    },
    TodoWrite: { arguments: obj({ todos: arr(todo) }, ['todos']), mutates: false },
    WebFetch: { arguments: obj({ url: str({ format: 'uri' }), prompt: str() }, ['url', 'prompt']), mutates: false },
    WebSearch: { arguments: obj({ query: str({ minLength: 2 }), allowed_domains: arr(str()), blocked_domains: arr(str()) }, ['query']), mutates: false },
    ExitPlanMode: { arguments: obj({ plan: str() }, ['plan']), mutates: false },
    SlashCommand: { arguments: obj({ command: str() }, ['command']) },
    ListMcpResourcesTool: { arguments: obj({ server: str() }), mutates: false },
    ReadMcpResourceTool: { arguments: obj({ server: str(), uri: str() }, ['server', 'uri']), mutates: false },
  },
};
