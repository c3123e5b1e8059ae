// SWE-agent's tool bundles (SWE-agent/SWE-agent tools/: registry, windowed, windowed_edit_linting,
// windowed_edit_replace, windowed_edit_rewrite, search, edit_anthropic, submit; config.yaml of search and
// edit_anthropic at 18d5c11f159a81750942197003bff5452e228230), SWE-agent 0.7-1.x. `edit` has one name and three
// bundles (line range, search/replace, window rewrite): the pack accepts the arguments of each. In text-action
// trajectories every command that is not a tool is run by the shell: those command lines get the command
// contract (mutating, not parsed).
import { arr, bool, int, obj, oneOfStr, str, type ContractPack } from './types';

export const sweAgentPack: ContractPack = {
  id: 'swe-agent',
  title: 'SWE-agent',
  describes: {
    project: 'SWE-agent (SWE-agent/SWE-agent) default tool bundles',
    version: '0.7-1.x',
    source: 'tools/*/config.yaml',
    commit: '18d5c11f159a81750942197003bff5452e228230',
  },
  commandFallback: true,
  tools: {
    bash: { arguments: obj({ command: str() }, ['command']), mutates: true },
    submit: { arguments: obj({}), mutates: false },
    open: { arguments: obj({ path: str(), line_number: int() }, ['path']), mutates: false },
    goto: { arguments: obj({ line_number: int() }, ['line_number']), mutates: false },
    scroll_up: { arguments: obj({}), mutates: false, volatile: true },
    scroll_down: { arguments: obj({}), mutates: false, volatile: true },
    create: { arguments: obj({ filename: str() }, ['filename']), mutates: 'filename' },
    edit: {
      arguments: obj({ search: str(), replace: str(), 'replace-all': bool(), start_line: int(), end_line: int(), replacement_text: str(), text: str() }),
      mutates: true,
    },
    insert: { arguments: obj({ text: str(), line: int() }, ['text']), mutates: true },
    find_file: { arguments: obj({ file_name: str(), dir: str() }, ['file_name']), mutates: false },
    search_dir: { arguments: obj({ search_term: str(), dir: str() }, ['search_term']), mutates: false },
    search_file: { arguments: obj({ search_term: str(), file: str() }, ['search_term']), mutates: false },
    filemap: { arguments: obj({ file_path: str() }, ['file_path']), mutates: false },
    str_replace_editor: {
      arguments: obj(
        { command: oneOfStr(['view', 'create', 'str_replace', 'insert', 'undo_edit']), path: str(), file_text: str(), old_str: str(), new_str: str(), insert_line: int(), view_range: arr(int()) },
        ['command', 'path'],
      ),
      mutates: 'path',
    },
  },
};
