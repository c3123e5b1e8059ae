// The MCP reference servers (modelcontextprotocol/servers): filesystem, fetch and git. filesystem is written
// from the tools/list of @modelcontextprotocol/server-filesystem 0.2.0 (secure-filesystem-server) plus
// directory_tree's excludePatterns (2025.x); fetch from src/fetch/src/mcp_server_fetch/server.py (the Fetch
// model); git from src/git/src/mcp_server_git/server.py (one pydantic model per tool; Optional[str] is
// string or null). A tools/list recorded in the trace wins over these.
import { arr, bool, int, obj, str, type ContractPack } from './types';

const path = obj({ path: str() }, ['path']);
const nullableStr = { type: ['string', 'null'] };

export const mcpFilesystemPack: ContractPack = {
  id: 'mcp-filesystem',
  title: 'MCP filesystem server',
  mcpServer: 'filesystem',
  describes: { project: '@modelcontextprotocol/server-filesystem', version: '0.2.0-2025.x', source: 'src/filesystem/index.ts (tools/list)' },
  tools: {
    read_file: { arguments: obj({ path: str(), tail: { type: 'number' }, head: { type: 'number' } }, ['path']), mutates: false },
    read_text_file: { arguments: obj({ path: str(), tail: { type: 'number' }, head: { type: 'number' } }, ['path']), mutates: false },
    read_media_file: { arguments: path, mutates: false },
    read_multiple_files: { arguments: obj({ paths: arr(str()) }, ['paths']), mutates: false },
    write_file: { arguments: obj({ path: str(), content: str() }, ['path', 'content']), mutates: 'path' },
    edit_file: {
      arguments: obj({ path: str(), edits: arr(obj({ oldText: str(), newText: str() }, ['oldText', 'newText'])), dryRun: bool() }, ['path', 'edits']),
      mutates: 'path',
    },
    create_directory: { arguments: path, mutates: 'path' },
    list_directory: { arguments: path, mutates: false },
    list_directory_with_sizes: { arguments: obj({ path: str(), sortBy: { type: 'string', enum: ['name', 'size'] } }, ['path']), mutates: false },
    directory_tree: { arguments: obj({ path: str(), excludePatterns: arr(str()) }, ['path']), mutates: false },
    move_file: { arguments: obj({ source: str(), destination: str() }, ['source', 'destination']), mutates: 'source' },
    search_files: { arguments: obj({ path: str(), pattern: str(), excludePatterns: arr(str()) }, ['path', 'pattern']), mutates: false },
    get_file_info: { arguments: path, mutates: false },
    list_allowed_directories: { arguments: obj({}), mutates: false },
  },
};

export const mcpFetchPack: ContractPack = {
  id: 'mcp-fetch',
  title: 'MCP fetch server',
  mcpServer: 'fetch',
  describes: { project: 'mcp-server-fetch', version: '2025.x', source: 'src/fetch/src/mcp_server_fetch/server.py (Fetch)' },
  tools: {
    fetch: {
      arguments: obj(
        { url: str({ format: 'uri', minLength: 1 }), max_length: int({ exclusiveMinimum: 0, exclusiveMaximum: 1000000 }), start_index: int({ minimum: 0 }), raw: bool() },
        ['url'],
      ),
      mutates: false,
    },
  },
};

const repo = { repo_path: str() };

export const mcpGitPack: ContractPack = {
  id: 'mcp-git',
  title: 'MCP git server',
  mcpServer: 'git',
  describes: { project: 'mcp-server-git', version: '2025.x', source: 'src/git/src/mcp_server_git/server.py' },
  tools: {
    git_status: { arguments: obj(repo, ['repo_path']), mutates: false },
    git_diff_unstaged: { arguments: obj({ ...repo, context_lines: int() }, ['repo_path']), mutates: false },
    git_diff_staged: { arguments: obj({ ...repo, context_lines: int() }, ['repo_path']), mutates: false },
    git_diff: { arguments: obj({ ...repo, target: str(), context_lines: int() }, ['repo_path', 'target']), mutates: false },
    git_commit: { arguments: obj({ ...repo, message: str() }, ['repo_path', 'message']), mutates: 'repo_path' },
    git_add: { arguments: obj({ ...repo, files: arr(str()) }, ['repo_path', 'files']), mutates: 'repo_path' },
    git_reset: { arguments: obj(repo, ['repo_path']), mutates: 'repo_path' },
    git_log: { arguments: obj({ ...repo, max_count: int(), start_timestamp: nullableStr, end_timestamp: nullableStr }, ['repo_path']), mutates: false },
    git_create_branch: { arguments: obj({ ...repo, branch_name: str(), base_branch: nullableStr }, ['repo_path', 'branch_name']), mutates: 'repo_path' },
    git_checkout: { arguments: obj({ ...repo, branch_name: str() }, ['repo_path', 'branch_name']), mutates: 'repo_path' },
    git_show: { arguments: obj({ ...repo, revision: str() }, ['repo_path', 'revision']), mutates: false },
    git_init: { arguments: obj(repo, ['repo_path']), mutates: 'repo_path' },
    git_branch: { arguments: obj({ ...repo, branch_type: str(), contains: nullableStr, not_contains: nullableStr }, ['repo_path', 'branch_type']), mutates: false },
  },
};
