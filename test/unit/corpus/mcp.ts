// Corpus expectations: mcp/ (see expect.ts).
import assert from 'node:assert/strict';
import { type Expectation } from './expect';

export const mcp: Record<string, Expectation> = {
  'mcp/explore-mcp-filesystem-session_20251023_230251.jsonl': {
    why: 'an MCP client-session capture: requests and responses paired by count; list_tools gives 14 definitions',
    format: 'mcp', sessions: 1, calls: 3, results: 3, unanswered: [], tools: 14,
    transport: ['read_file isError=false', 'list_directory isError=false', 'write_file isError=false'],
    findings: [],
    extra: (r, [s]) => assert.deepEqual(s.calls.map((c) => c.args), [{ path: 'README.md' }, { path: '.' }, { path: '/private/tmp/demo.txt', content: 'Demo from npm workflow' }],
      'every call fits the server\'s own inputSchema: nothing to report'),
  },
};
