// OpenHands CodeActAgent's function-calling tools. Written from openhands/agenthub/codeact_agent/tools/
// (All-Hands-AI/OpenHands: bash.py at 05b040a8197b777a23f702422858b1fcf5cc88be, finish.py at
// 151c188ce16dbe70b7b4c505c04b8ba1b1b503cf, str_replace_editor.py, ipython.py, think.py, browser.py, web_read.py,
// llm_based_edit.py), OpenHands 0.1x-0.5x. `security_risk` (newer releases) is accepted. finish's `message` is
// optional here: the releases that wrote the early trajectories defined finish without parameters.
import { arr, int, num, obj, oneOfStr, str, type ContractPack } from './types';

const risk = { security_risk: oneOfStr(['LOW', 'MEDIUM', 'HIGH']) };

export const openhandsPack: ContractPack = {
  id: 'openhands',
  title: 'OpenHands',
  describes: {
    project: 'OpenHands CodeActAgent (All-Hands-AI/OpenHands)',
    version: '0.1x-0.5x',
    source: 'openhands/agenthub/codeact_agent/tools/*.py',
    commit: '05b040a8197b777a23f702422858b1fcf5cc88be',
  },
  tools: {
    execute_bash: { arguments: obj({ command: str(), is_input: oneOfStr(['true', 'false']), timeout: num(), ...risk }, ['command']), mutates: true },
    str_replace_editor: {
      arguments: obj(
        {
          command: oneOfStr(['view', 'create', 'str_replace', 'insert', 'undo_edit']), path: str(), file_text: str(), old_str: str(), new_str: str(),
          insert_line: int(), view_range: arr(int()), ...risk,
        },
        ['command', 'path'],
      ),
      mutates: 'path',
    },
    execute_ipython_cell: { arguments: obj({ code: str(), ...risk }, ['code']), mutates: true },
    edit_file: { arguments: obj({ path: str(), content: str(), start: int(), end: int(), ...risk }, ['path', 'content']), mutates: 'path' },
    browser: { arguments: obj({ code: str(), ...risk }, ['code']), mutates: true },
    web_read: { arguments: obj({ url: str() }, ['url']), mutates: false },
    think: { arguments: obj({ thought: str() }, ['thought']), mutates: false },
    finish: { arguments: obj({ message: str(), task_completed: oneOfStr(['true', 'false', 'partial']) }), mutates: false },
  },
};
